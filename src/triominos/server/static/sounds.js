// The table's sounds: a placement, a bonus, your turn and the bell, with a mute that this
// browser keeps (localStorage). The tones are made by Web Audio, so no sound file is
// fetched.

const MUTED = "triominos.muted";

/** Each sound: its notes as [frequency in Hz, seconds]. */
const TUNES = {
  place: [[520, 0.08]],
  bonus: [[660, 0.1], [880, 0.16]],
  turn: [[440, 0.12], [587, 0.18]],
  bell: [[1175, 0.5]],
};

export class Sounds {
  constructor() {
    this.context = null;
  }

  get muted() {
    return localStorage.getItem(MUTED) === "1";
  }

  set muted(value) {
    localStorage.setItem(MUTED, value ? "1" : "0");
  }

  /**
   * Play what the change from view `before` to view `after` deserves: the bell when a
   * rack emptied and the hand goes on, else a bonus or a placement, then our turn.
   */
  changed(before, after, ourTurn) {
    const placed = after.board.length > before.board.length && after.hand === before.hand;
    const last = after.history[after.history.length - 1];
    const bell = after.hand === before.hand && !after.end && after.rack_sizes.some((size, seat) => size === 0 && before.rack_sizes[seat] > 0);
    if (bell) this.play("bell");
    else if (placed) this.play(Object.keys(last?.bonuses ?? {}).length ? "bonus" : "place");
    if (ourTurn && before.legal.length === 0) this.play("turn");
  }

  play(name) {
    // For tests and tools: the last sound the page made (or would have made, muted).
    document.body.dataset.sound = this.muted ? `muted:${name}` : name;
    // A browser lets a page sound only once it was touched (its autoplay rules).
    if (this.muted || typeof AudioContext === "undefined" || !navigator.userActivation?.hasBeenActive) return;
    this.context ??= new AudioContext();
    let at = this.context.currentTime;
    for (const [frequency, seconds] of TUNES[name]) {
      const oscillator = this.context.createOscillator();
      const gain = this.context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      oscillator.connect(gain).connect(this.context.destination);
      oscillator.start(at);
      oscillator.stop(at + seconds);
      at += seconds;
    }
  }
}
