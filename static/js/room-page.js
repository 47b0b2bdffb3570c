// A room on the page (loaded only when one is opened or made): reads the room's link, takes the
// invited seat, remembers this browser's seats, shows the invite with Copy and Share, whether the
// friend is here, and hands the board to the room's game (room.js).
//
// Links (the address bar, and what POST /rooms answers):
//   /?room=ID#host=TOKEN    the host's seat        /?room=ID#invite=TOKEN   the friend's invite
//   /?room=ID#guest=TOKEN   the friend's seat      /?room=ID                watching
// The tokens ride in the fragment, which the browser never sends to a server.

import { createRoomGame, roomApi } from "./room.js";
import { copyField } from "./share.js";

const SEATS_KEY = "rooms";
const KEEP = 20; // the seats this browser remembers, newest first
const ROOM_ID = /^[A-Za-z0-9]{8}$/;

/** The room link of a location's search and hash: {id, seat: {seat, token} | null, invite} or null. */
export function readRoomLink(search, hash) {
  const id = new URLSearchParams(search).get("room");
  if (id === null) return null;
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const seatName = ["host", "guest"].find((name) => fragment.get(name));
  return {
    id,
    seat: seatName ? { seat: seatName, token: fragment.get(seatName) } : null,
    invite: fragment.get("invite"),
  };
}

/** The query and fragment of a room's page for `seat` (null: the watch link). */
export function roomLink(id, seat) {
  return `?room=${id}${seat ? `#${seat.seat}=${seat.token}` : ""}`;
}

function keptSeats(store) {
  const kept = store.get(SEATS_KEY);
  return kept && typeof kept === "object" ? kept : {};
}

function keepSeat(store, id, seat) {
  const kept = Object.entries({ ...keptSeats(store), [id]: { ...seat, at: Date.now() } })
    .sort((a, b) => b[1].at - a[1].at).slice(0, KEEP);
  store.set(SEATS_KEY, Object.fromEntries(kept));
}

/**
 * Open a room: `create` (rules {rows, cols, k, side}) makes one and seats this page as its host;
 * else `link` (readRoomLink's) opens it.  `els`: {panel?, note, invite?, inviteLink?, share?, watchLink?,
 * copied?, leave?}; `draw(view)` draws the board (and the review); `onGameOver(winner)`; `onLeave()`.
 * Resolves to {game, notice} (notice: words for the page, or null), or rejects with the server's
 * refusal (an unknown or expired room).
 */
export async function openRoom({ create, link, store, els, draw, onGameOver, onLeave }) {
  let seat = null;
  let invite = null;
  let state = null;
  let notice = null;
  if (create) {
    const answer = await roomApi.create(create);
    seat = { seat: answer.seat, token: answer.token };
    invite = new URLSearchParams(answer.links.invite.split("#")[1]).get("invite");
    state = answer.state;
    keepSeat(store, answer.room, { ...seat, invite });
  } else {
    if (!ROOM_ID.test(link.id)) throw new Error(`“${link.id}” is not a room's id: check the link.`);
    const kept = keptSeats(store)[link.id];
    seat = link.seat ?? (kept ? { seat: kept.seat, token: kept.token } : null);
    invite = kept?.invite ?? null;
    if (link.invite && kept?.invite === link.invite) {
      notice = "This is the invite for your friend: send it to them; this page keeps your own seat.";
    } else if (link.invite && !seat) {
      try {
        const answer = await roomApi.seat(link.id, link.invite);
        seat = { seat: answer.seat, token: answer.token };
        state = answer.state;
      } catch (error) {
        if (error.status !== 409 && error.status !== 403) throw error;
        notice = error.status === 409 ? "Both seats of this room are taken: you are watching the game."
          : "This invite does not open a seat here: you are watching the game.";
      }
    }
    state ??= await roomApi.state(link.id);
    if (seat) keepSeat(store, link.id, { ...seat, ...(invite ? { invite } : {}) });
  }
  const id = state.room;
  window.history.replaceState(null, "", roomLink(id, seat));

  const origin = window.location.origin;
  const inviteUrl = invite && `${origin}/?room=${id}#invite=${invite}`;
  const game = createRoomGame({
    state, seat, onGameOver,
    onChange: (view) => {
      draw(view);
      showPanel(els, view, inviteUrl);
    },
  });
  if (els.panel) {
    els.panel.hidden = false;
    if (els.watchLink) els.watchLink.value = `${origin}/${roomLink(id, null)}`;
    if (els.share) els.share.hidden = typeof navigator.share !== "function";
    els.panel.onclick = (event) => panelClick(event, els, inviteUrl);
    if (els.leave) {
      els.leave.onclick = () => {
        game.stop();
        els.panel.hidden = true;
        els.note.hidden = true;
        window.history.replaceState(null, "", "/");
        onLeave();
      };
    }
  }
  game.start();
  return { game, notice };
}

/** The panel and the note: the friend's presence, the invite while the friend's seat is free. */
function showPanel(els, view, inviteUrl) {
  const room = view.room;
  if (els.note.textContent !== room.presence) els.note.textContent = room.presence;
  els.note.hidden = false;
  if (!els.invite) return;
  const inviting = Boolean(inviteUrl) && room.seat === "host" && !room.friendSeated;
  els.invite.hidden = !inviting;
  if (inviting && els.inviteLink.value !== inviteUrl) els.inviteLink.value = inviteUrl;
}

/** Copy (a field's link) and Share (the invite, through the system's share sheet). */
async function panelClick(event, els, inviteUrl) {
  const button = event.target.closest("button[data-copy], button[data-share]");
  if (!button) return;
  if (button.dataset.share !== undefined) {
    try {
      await navigator.share({ title: "Tic-tac-toe", text: "Play tic-tac-toe with me:", url: inviteUrl });
    } catch {
      // The sheet was closed: nothing to say.
    }
    return;
  }
  els.copied.textContent = await copyField(document.getElementById(button.dataset.copy));
}
