"""Play Draw in the browser: a FastAPI app with live tables over WebSockets and SQLite storage."""
