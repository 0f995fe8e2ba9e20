/** What a ticket's list row shows for its last message. */
export function lastMessagePreview(input: { body: string; media?: { name: string } | null; specialType?: string | null }): string {
  if (input.body.trim()) return input.body.slice(0, 255);
  // The web shows the word for it (spec: a location shows the word for location).
  if (input.specialType) return input.specialType;
  return input.media?.name ?? '';
}
