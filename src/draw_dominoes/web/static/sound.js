// The optional beep on this seat's turn: off unless switched on, remembered in localStorage.

let audio = null;  // one AudioContext, made on the first beep

export function soundOn() {
  return localStorage.getItem("dd_sound") === "on";
}

export function setSound(on) {
  localStorage.setItem("dd_sound", on ? "on" : "off");
}

export function beep() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 740;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.3);
  } catch { /* no sound where audio is unavailable */ }
}
