import { STORAGE } from '../../api/storage-keys';

/** The top bar's volume (spec part 1 §9: 0 to 1, stored locally); 1 when never set. */
export function storedVolume(): number {
  const raw = localStorage.getItem(STORAGE.volume);
  const value = raw === null || raw.trim() === '' ? 1 : Number(raw);
  if (!Number.isFinite(value)) return 1;
  return Math.min(1, Math.max(0, value));
}

type AudioContextConstructor = typeof AudioContext;
let context: AudioContext | null = null;

/**
 * Two short rising tones made with the Web Audio API, so the app ships no sound
 * file. Browsers block audio until the user has interacted with the page; then
 * this stays silent rather than failing.
 */
export function playNotificationSound(volume: number = storedVolume()): void {
  if (volume <= 0) return;
  // Before the first click or key press the browser refuses to play (and warns each time).
  if (typeof navigator !== 'undefined' && navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    const Constructor: AudioContextConstructor | undefined =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext;
    if (!Constructor) return;
    context ??= new Constructor();
    const audio = context;
    if (audio.state === 'suspended') audio.resume().catch(() => undefined);
    const start = audio.currentTime;
    [880, 1320].forEach((frequency, index) => {
      const at = start + index * 0.12;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25 * volume, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.2);
    });
  } catch {
    // Audio blocked or unavailable: a missing beep must not break the list.
  }
}
