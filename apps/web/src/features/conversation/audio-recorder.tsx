import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import { Box, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../components/toast';
import { downmix, encodeMp3, keepRecording, recordingFileName } from './audio-encoding';

export type RecorderState = 'idle' | 'recording' | 'encoding';

interface Session {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  timer: ReturnType<typeof setInterval>;
}

function stopSession(session: Session): Promise<Blob> {
  clearInterval(session.timer);
  return new Promise((resolve) => {
    const done = () => {
      session.stream.getTracks().forEach((track) => track.stop());
      resolve(new Blob(session.chunks, { type: session.recorder.mimeType }));
    };
    if (session.recorder.state === 'inactive') return done();
    session.recorder.addEventListener('stop', done, { once: true });
    session.recorder.stop();
  });
}

/** The browser's recording (whatever codec it records in) decoded and re-encoded as mp3 at 128 kbps (spec part 1 §4). */
async function toMp3(recorded: Blob): Promise<Blob> {
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(await recorded.arrayBuffer());
    const channels = Array.from({ length: audio.numberOfChannels }, (_, i) => audio.getChannelData(i));
    return await encodeMp3(downmix(channels), audio.sampleRate);
  } finally {
    void context.close();
  }
}

/** Idle → recording (with a timer) → send or cancel. */
export function useAudioRecorder() {
  const { t } = useTranslation();
  const [state, setState] = useState<RecorderState>('idle');
  const [seconds, setSeconds] = useState(0);
  const session = useRef<Session | null>(null);

  useEffect(
    () => () => {
      // Leaving the screen mid-recording releases the microphone.
      if (session.current) void stopSession(session.current);
      session.current = null;
    },
    [],
  );

  const start = useCallback(async () => {
    if (session.current) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      recorder.addEventListener('dataavailable', (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      });
      recorder.start(250);
      const startedAt = Date.now();
      setSeconds(0);
      const timer = setInterval(() => setSeconds(Math.floor((Date.now() - startedAt) / 1000)), 500);
      session.current = { recorder, stream, chunks, timer };
      setState('recording');
    } catch {
      toastError(new Error(t('conversation.composer.micDenied')));
    }
  }, [t]);

  const cancel = useCallback(async () => {
    const current = session.current;
    session.current = null;
    setState('idle');
    if (current) await stopSession(current);
  }, []);

  /** The mp3 file to send, or null when the recording was too short to keep (discarded silently). */
  const finish = useCallback(async (): Promise<File | null> => {
    const current = session.current;
    if (!current) return null;
    session.current = null;
    setState('encoding');
    try {
      const mp3 = await toMp3(await stopSession(current));
      if (!keepRecording(mp3)) return null;
      return new File([mp3], recordingFileName(), { type: 'audio/mpeg' });
    } catch (error) {
      toastError(error);
      return null;
    } finally {
      setState('idle');
    }
  }, []);

  return { state, seconds, start, cancel, finish };
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** What replaces the input while recording: cancel, the timer, send. */
export function RecordingBar({ state, seconds, onCancel, onSend }: { state: RecorderState; seconds: number; onCancel(): void; onSend(): void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ flex: 1, alignItems: 'center', justifyContent: 'flex-end' }} data-testid="recording-bar">
      <IconButton onClick={onCancel} disabled={state !== 'recording'} aria-label={t('conversation.composer.cancelRecording')} data-testid="recording-cancel" color="error">
        <CancelOutlined />
      </IconButton>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <FiberManualRecord color="error" fontSize="small" sx={{ animation: 'pulse 1s infinite alternate', '@keyframes pulse': { from: { opacity: 1 }, to: { opacity: 0.3 } } }} />
        <Typography variant="body2" role="timer" data-testid="recording-timer">
          {t('conversation.composer.recording', { time: clock(seconds) })}
        </Typography>
      </Box>
      {state === 'encoding' ? (
        <CircularProgress size={24} />
      ) : (
        <IconButton onClick={onSend} aria-label={t('conversation.composer.sendRecording')} data-testid="recording-send" color="success">
          <CheckCircleOutline />
        </IconButton>
      )}
    </Stack>
  );
}
