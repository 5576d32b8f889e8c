/** A text/event-stream response read event by event (the invocation events of the API). */
export interface SseEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Reads a text/event-stream response event by event. */
export async function* events(res: Response): AsyncGenerator<SseEvent> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((l) => !l.startsWith(':') && l.includes(': '))
          .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
      );
      if (fields.event)
        yield { id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null') as Record<string, unknown> };
    }
  }
}
