import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

/** A help video as `GET /helps/list` answers it (spec part 2 §3 Help). */
export interface Help {
  id: number;
  title: string;
  /** A YouTube video id. */
  video: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export const helpsKey = ['helps'] as const;

/** Every help video, by title: the help page and the Settings → Helps tab share the list. */
export function useHelps() {
  const { api } = useSession();
  return useQuery({ queryKey: helpsKey, queryFn: () => api.get<Help[]>('/helps/list') });
}

export function sortHelps(list: Help[]): Help[] {
  return [...list].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
}

/** YouTube's still of the video; the page falls back to a local placeholder when it cannot load (offline). */
export function thumbnailUrl(video: string): string {
  return `https://i.ytimg.com/vi/${encodeURIComponent(video)}/hqdefault.jpg`;
}

/** YouTube's no-cookie player (the only frame source the app's CSP allows). */
export function embedUrl(video: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video)}?autoplay=1&rel=0`;
}
