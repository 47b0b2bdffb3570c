// A room on the page (loaded only when one is opened or made): reads the room's link, takes the
// invited seat, remembers this browser's seats (never replacing a good one by a link the server
// refuses), shows the invite with Copy, Share and its QR code, whether the friend is here, the
// seat's name and its actions (offers and their answers, resign, claim), and hands the board to the
// room's game (room.js).
//
// Links (the address bar, and what POST /rooms answers):
//   /?room=ID#host=TOKEN    the host's seat        /?room=ID#invite=TOKEN   the friend's invite
//   /?room=ID#guest=TOKEN   the friend's seat      /?room=ID                watching
// The tokens ride in the fragment, which the browser never sends to a server.

import { createRoomGame, roomApi } from "./room.js";
import { copyField } from "./share.js";

const SEATS_KEY = "rooms";
const KEEP = 12; // the seats this browser remembers, newest first (within a cookie's 4 KiB in an embed)
const ROOM_ID = /^[A-Za-z0-9]{8}$/;
const OFFER_WORDS = {
  draw: (who) => `${who} offers a draw.`,
  takeback: (who) => `${who} asks to take back their last move.`,
};

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
 * The seat this page plays in room `id`: the link's, once the server says it holds one, else the one
 * this browser kept; null to watch.  Resolves to {seat, notice} (notice: words for a link refused).
 */
async function seatFor(id, link, kept) {
  if (!link.seat) return { seat: kept, notice: null };
  if (kept && kept.token === link.seat.token) return { seat: kept, notice: null };
  try {
    const held = await roomApi.holder(id, link.seat.token);
    return { seat: { seat: held.seat, token: link.seat.token }, notice: null };
  } catch (error) {
    if (error.status !== 403) throw error;
    const rest = kept ? "this page opens the seat it already had here." : "you are watching the game.";
    return { seat: kept, notice: `This seat link is not right (cut short, or mistyped): ${rest}` };
  }
}

/**
 * Open a room: `create` (rules {rows, cols, k, side}) makes one and seats this page as its host;
 * else `link` (readRoomLink's) opens it.  `els`: the page's room elements (see main.js; the embed
 * has fewer); `draw(view)` draws the board (and the review); `onGameOver(winner, view)`;
 * `onTurn()`; `onLeave()`.  Resolves to {game, notice} (notice: words for the page, or null), or
 * rejects with the server's refusal (an unknown or expired room).
 */
export async function openRoom({ create, link, store, els, draw, onGameOver, onTurn = () => {}, onLeave }) {
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
    invite = kept?.invite ?? null;
    ({ seat, notice } = await seatFor(link.id, link, kept ? { seat: kept.seat, token: kept.token } : null));
    if (link.invite && kept?.invite === link.invite) {
      notice = "This is the invite for your friend: send it to them. This page keeps your own seat.";
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
    state, seat, onGameOver: (winner) => onGameOver(winner, game.view()), onTurn,
    onChange: (view) => {
      draw(view);
      showRoom(els, view, inviteUrl);
    },
  });
  bindRoom({ els, game, id, origin, inviteUrl, onLeave });
  game.start();
  return { game, notice };
}

/** The room's panel (the page's) and bar (the page's and the embed's): their buttons and fields. */
function bindRoom({ els, game, id, origin, inviteUrl, onLeave }) {
  for (const container of [els.bar, els.answer]) {
    if (!container) continue;
    container.onclick = (event) => {
      const button = event.target.closest("button[data-act]");
      if (!button) return;
      const action = button.dataset.act;
      if (action === "resign") {
        els.confirm.hidden = false;
        els.confirm.querySelector("button").focus();
        return;
      }
      if (action === "keep") {
        els.confirm.hidden = true;
        return;
      }
      if (action === "resign-yes") els.confirm.hidden = true;
      // Accepting is asking the same: a draw for a draw offered, a takeback for one asked.
      const chosen = { "resign-yes": "resign", accept: button.dataset.accepts }[action] ?? action;
      game.act(chosen);
    };
  }
  if (!els.panel) return;
  els.panel.hidden = false;
  if (els.watchLink) els.watchLink.value = `${origin}/${roomLink(id, null)}`;
  if (els.share) els.share.hidden = typeof navigator.share !== "function";
  els.panel.onclick = (event) => panelClick(event, els, inviteUrl);
  if (els.nameForm) {
    els.nameForm.onsubmit = (event) => {
      event.preventDefault();
      game.name(els.name.value);
    };
  }
  if (els.inviteCode && inviteUrl) showInviteCode(els.inviteCode, id, inviteUrl);
  if (els.leave) {
    els.leave.onclick = () => {
      game.stop();
      els.panel.hidden = true;
      els.note.parentElement.hidden = true;
      if (els.bar) els.bar.hidden = true;
      window.history.replaceState(null, "", "/");
      onLeave();
    };
  }
}

/** The invite's QR code beside its link (drawn by the server from the invite sent in a body). */
async function showInviteCode(image, id, inviteUrl) {
  const invite = new URLSearchParams(inviteUrl.split("#")[1]).get("invite");
  try {
    const svg = await roomApi.inviteCode(id, invite);
    image.src = `data:image/svg+xml;base64,${btoa(svg)}`;
    image.hidden = false;
  } catch {
    image.hidden = true; // the invite is spent, or the server is away: the link is there
  }
}

/** The note, the bar and the panel: the friend's presence and offers, this seat's choices, the invite. */
function showRoom(els, view, inviteUrl) {
  const room = view.room;
  const words = offerWords(view) ?? room.presence;
  if (els.note.textContent !== words) els.note.textContent = words;
  els.note.parentElement.hidden = false;
  if (els.bar) showBar(els, view);
  if (!els.invite) return;
  const inviting = Boolean(inviteUrl) && room.seat === "host" && !room.friendSeated;
  els.invite.hidden = !inviting;
  if (inviting && els.inviteLink.value !== inviteUrl) els.inviteLink.value = inviteUrl;
  if (els.seatHelp) els.seatHelp.hidden = !room.me;
  if (els.nameForm) {
    els.nameForm.hidden = !room.me;
    if (room.me && document.activeElement !== els.name) els.name.value = room.names[room.me] ?? "";
  }
}

/** An offer waiting, or a rematch asked, in words for this page (null: none). */
function offerWords(view) {
  const room = view.room;
  const friend = room.me && (room.names[room.me === "x" ? "o" : "x"] ?? "Your friend");
  if (room.offer) {
    if (!room.me) return OFFER_WORDS[room.offer.kind](room.offer.side.toUpperCase());
    if (room.offerIsMine) {
      const asked = room.offer.kind === "draw" ? "a draw" : "a takeback";
      return `You asked for ${asked}: waiting for ${friend === "Your friend" ? "your friend" : friend}.`;
    }
    return OFFER_WORDS[room.offer.kind](friend);
  }
  if (room.me && room.rematchAsked.length && view.status !== "in_progress") return `${friend} asks for a rematch.`;
  return null;
}

function showBar(els, view) {
  const room = view.room;
  const answering = Boolean(room.offer) && Boolean(room.me) && !room.offerIsMine;
  if (els.answer) {
    els.answer.hidden = !(answering || room.offerIsMine);
    const [accept, decline] = els.answer.querySelectorAll("button");
    accept.hidden = !answering;
    decline.textContent = room.offerIsMine ? "Withdraw" : "Decline";
    if (room.offer) accept.dataset.accepts = room.offer.kind;
  }
  els.bar.hidden = !room.me || view.status !== "in_progress" || !room.friendSeated;
  const show = (name, visible) => {
    const button = els.bar.querySelector(`[data-act="${name}"]`);
    if (button) button.hidden = !visible;
  };
  // A draw is offered on boards bigger than 3x3, where games last long enough to agree on one.
  show("draw", room.canDraw && view.rows * view.cols > 9);
  show("takeback", room.canTakeback);
  show("claim", room.canClaim);
  show("resign", room.canResign);
  if (!room.canResign && els.confirm) els.confirm.hidden = true;
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
