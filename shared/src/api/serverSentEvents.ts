/** One server-sent event: its name (`message` when the server gave none) and its data. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads the complete events at the start of `buffer` (the text/event-stream format: lines of `field: value`,
 * an event ended by a blank line, `:` lines comments such as heartbeats), and answers them with what is left
 * for the next chunk to complete. Used by the client, the tests and the benchmarks alike.
 */
export function readServerSentEvents(buffer: string): { events: ServerSentEvent[]; rest: string } {
  const events: ServerSentEvent[] = [];
  const normalised = buffer.replace(/\r\n?/g, '\n');
  const blocks = normalised.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}
