"""The app's routes, one small router each: pages, the JSON API, operators, live play."""
