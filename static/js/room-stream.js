// A room's events for this page, from one stream per browser however many tabs hold the room.
//
// Browsers keep at most six HTTP/1.1 connections to a server across all their tabs, and an
// EventSource holds one for as long as it is open: a seventh tab of the game would hang.  So the
// tabs of one room (and seat) elect one of them with the Web Locks API; that tab holds the stream
// and passes every event on to the others over a BroadcastChannel.  When it closes, its lock goes
// to the next tab, which opens the stream in turn.  Where either API is missing, each tab holds its own.
//
// The holding tab watches its stream: the server sends an event at least every 15 s (a heartbeat
// when the room is quiet), so a stream silent for longer than two of them has died without a word
// (a phone that moved from Wi-Fi to mobile data): it is closed and opened again.  A new stream
// starts with the room's state, so nothing that happened meanwhile is missed.
//
// connection: "connecting" | "open" | "reconnecting" (silent, or the browser reconnecting for
// longer than LOST_AFTER_MS) | "refused" (the server answered with an error: asked again later).

export const EVENTS = ["state", "move", "end", "join", "leave", "rematch", "offer", "takeback", "name", "heartbeat"];
const HEARTBEAT_MS = 15000; // the server's HEARTBEAT_SECONDS (web/rooms/stream.py)
export const SILENT_MS = 2.5 * HEARTBEAT_MS;
// A stream the browser reconnects by itself (the server ends each after its lifetime) is back in
// its 2 s retry: it is said lost only once it has been down this long.
export const LOST_AFTER_MS = 4000;
// After the server refused the stream (a 429 or 503: its streams are full), it is asked again this
// long after: the Retry-After the server sends, which EventSource hides.
export const RETRY_MS = 5000;

/**
 * The events of the stream at `url`, shared by this browser's tabs under `key`.  `onEvent({id,
 * type, data})` for every event (heartbeats included), `onConnection(state)` when the connection
 * changes, `onRefused()` when the server refused it (it is asked again RETRY_MS later).
 * Returns {reconnect(), stop()}.
 */
export function openRoomStream({
  url, key, onEvent, onConnection, onRefused = () => {},
  openEvents = (address) => new EventSource(address),
  locks = globalThis.navigator?.locks, Channel = globalThis.BroadcastChannel,
  clock = globalThis,
}) {
  let source = null;
  let leading = false;
  let stopped = false;
  let release = null;
  let silence = 0;
  let lost = 0;
  let retry = 0;
  let connection = "connecting";
  const channel = locks && Channel ? new Channel(key) : null;

  const tell = (state) => {
    connection = state;
    onConnection(state);
    channel?.postMessage({ connection: state });
  };
  const heard = (event) => {
    onEvent(event);
    channel?.postMessage({ event });
  };

  function watch() {
    clock.clearTimeout(silence);
    silence = clock.setTimeout(() => restart(), SILENT_MS);
  }

  function connect() {
    if (stopped) return;
    source = openEvents(url);
    watch();
    source.addEventListener("open", () => {
      clock.clearTimeout(lost);
      watch();
      tell("open");
    });
    source.addEventListener("error", () => {
      if (source.readyState === 2) { // CLOSED: the server answered with an error
        clock.clearTimeout(silence);
        tell("refused");
        onRefused();
        retry = clock.setTimeout(connect, RETRY_MS);
        return;
      }
      clock.clearTimeout(lost);
      lost = clock.setTimeout(() => tell("reconnecting"), LOST_AFTER_MS);
    });
    for (const type of EVENTS) {
      source.addEventListener(type, (message) => {
        watch();
        heard({ id: message.lastEventId ? Number(message.lastEventId) : null, type, data: JSON.parse(message.data) });
      });
    }
  }

  /** Close the stream and open a new one now (it went silent, or a request failed). */
  function restart() {
    if (!leading || stopped) return;
    source?.close();
    clock.clearTimeout(retry);
    clock.clearTimeout(lost);
    tell("reconnecting");
    connect();
  }

  function lead() {
    leading = true;
    connect();
    return new Promise((resolve) => { release = resolve; }); // the lock is held until stop()
  }

  if (channel) {
    channel.onmessage = ({ data }) => {
      if (leading) {
        if (data.hello) channel.postMessage({ connection });
        if (data.reconnect) restart();
        return;
      }
      if (data.event) onEvent(data.event);
      if (data.connection) onConnection(data.connection);
    };
    // A frame whose storage the browser keeps apart (a third party's) may be denied the lock: it
    // then holds a stream of its own, as where the API is missing.
    locks.request(key, () => (stopped ? null : lead())).catch(() => {
      if (!leading && !stopped) lead();
    });
    channel.postMessage({ hello: true }); // the holder, if any, says how its connection is
  } else {
    lead();
  }

  return {
    reconnect() {
      if (leading) restart();
      else channel?.postMessage({ reconnect: true });
    },
    stop() {
      stopped = true;
      for (const timer of [silence, lost, retry]) clock.clearTimeout(timer);
      source?.close();
      channel?.close();
      release?.(); // the next tab, if any, takes the stream
    },
  };
}
