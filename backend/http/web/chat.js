// Frontdesk web chat: one property's guest threads, for an iframe in a host's own application.
// It speaks the public chat API with a chat session token, got once for the one-time token in its
// address. Text from guests is only ever set as textContent, never parsed as HTML.
"use strict";

const API = "/api/v1";
const PAGE = 30;          // threads per page
const MESSAGES = 50;      // messages per page, newest first
const NOTES = 100;        // staff's internal notes read with a conversation, newest first
const POLL_MS = 4000;     // how often the list and the open conversation look for news
const SESSION_KEY = "frontdesk-chat-session";

const state = {
  session: null,          // {token, property_id, property_title, expires_at}
  filter: "open",
  search: "",
  threadPages: 1,
  threads: [],
  current: null,          // the open thread
  messages: [],           // oldest first, as shown
  notes: [],              // staff's internal notes on the open thread, never messages
  messagePages: 1,
  messageTotal: 0,
  file: null,
};

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function notice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

class ApiError extends Error {
  constructor(status, body) {
    super(describe(body) || `request failed (${status})`);
    this.status = status;
  }
}

// The engine's error shape: {"errors": {"code", "title", "details"}}; details a list or {field: [..]}.
function describe(body) {
  const errors = body && body.errors;
  if (!errors) return "";
  const details = errors.details;
  if (Array.isArray(details)) return details.join("; ");
  if (details && typeof details === "object") {
    return Object.entries(details).map(([field, problems]) => `${field} ${[].concat(problems).join(", ")}`).join("; ");
  }
  return typeof details === "string" ? details : errors.title;
}

async function api(path, options = {}) {
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  if (state.session) headers.Authorization = `Bearer ${state.session.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(API + path, {
    method: options.method || "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: "omit",
    cache: "no-store",
  });
  if (options.raw && response.ok) return response;
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && state.session) expire();
    throw new ApiError(response.status, body);
  }
  return body;
}

// --- the session -----------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  const oneTime = params.get("token");
  if (oneTime) {
    // Out of the address bar and history at once: the token is spent below and must not linger.
    history.replaceState(null, "", location.pathname);
    try {
      const body = await api("/auth/chat_session", { method: "POST", body: { chat_session: { one_time_token: oneTime } } });
      state.session = body.data.attributes;
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(state.session));
    } catch (error) {
      return stop(error.message);
    }
  } else {
    state.session = JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null");
    if (!state.session) return stop("This page opens from your property system's chat link.");
  }
  $("property").textContent = state.session.property_title;
  document.title = `${state.session.property_title} · Guest chat`;
  bind();
  await refreshThreads();
  setInterval(poll, POLL_MS);
}

function stop(text) {
  document.querySelector("main").hidden = true;
  document.querySelector(".bar").hidden = true;
  notice(text);
}

function expire() {
  sessionStorage.removeItem(SESSION_KEY);
  state.session = null;
  stop("The chat session has ended. Open the chat again from your property system.");
}

// --- threads ---------------------------------------------------------------------------------

function threadQuery(page) {
  const query = new URLSearchParams({
    "filter[property_id]": state.session.property_id,
    "pagination[limit]": String(PAGE),
    "pagination[page]": String(page),
  });
  if (state.filter === "open") query.set("filter[is_closed]", "false");
  if (state.filter === "closed") query.set("filter[is_closed]", "true");
  if (state.filter === "unread") query.set("filter[unread]", "true");
  if (state.search) query.set("filter[search]", state.search);
  return query;
}

// Every page shown so far, read again: a thread that moved up must not show twice.
async function refreshThreads() {
  const seen = new Map();
  let total = 0;
  for (let page = 1; page <= state.threadPages; page += 1) {
    const body = await api(`/message_threads?${threadQuery(page)}`);
    for (const thread of body.data) if (!seen.has(thread.id)) seen.set(thread.id, thread);
    total = body.meta.total;
  }
  state.threads = [...seen.values()];
  renderThreads(total);
}

function renderThreads(total) {
  const list = $("thread-list");
  list.replaceChildren(...state.threads.map(threadItem));
  $("threads-empty").hidden = state.threads.length > 0;
  $("more-threads").hidden = state.threads.length >= total;
}

function threadItem(thread) {
  const a = thread.attributes;
  const item = el("li", "thread");
  item.dataset.id = thread.id;
  item.tabIndex = 0;
  item.setAttribute("role", "button");
  if (a.unread_count > 0) item.classList.add("unread");
  if (state.current && state.current.id === thread.id) item.setAttribute("aria-current", "true");
  const top = el("div", "row");
  top.append(el("span", "mark", a.unread_count > 0 ? "●" : ""), el("strong", "title", a.title),
             el("span", "provider", provider(a.provider)), el("time", "age", age(a.last_message_received_at)));
  const preview = el("p", "preview", a.last_message ? previewText(a.last_message) : "");
  if (a.unread_count > 0) preview.prepend(el("span", "count", `${a.unread_count} new · `));
  item.append(top, preview);
  item.addEventListener("click", () => openThread(thread));
  item.addEventListener("keydown", (event) => { if (event.key === "Enter") openThread(thread); });
  return item;
}

function provider(code) {
  return { BookingCom: "Booking.com", AirBNB: "Airbnb" }[code] || code;
}

function previewText(message) {
  if (message.sender === "system") return "Inquiry";
  const who = message.sender === "property" ? "You: " : "";
  const files = message.attachments.length ? `[${count(message.attachments.length, "file", "files")}] ` : "";
  return who + files + (message.message || "");
}

// Server timestamps are UTC without a zone.
function utc(stamp) {
  return new Date(`${stamp}Z`);
}

function age(stamp) {
  const minutes = Math.max(0, Math.round((Date.now() - utc(stamp)) / 60000));
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}

// --- a conversation --------------------------------------------------------------------------

async function openThread(thread) {
  state.current = thread;
  state.messagePages = 1;
  $("conversation").hidden = false;
  document.body.classList.add("reading");
  renderHead();
  await loadMessages({ toBottom: true });
  if (thread.attributes.unread_count > 0) {
    const body = await api(`/message_threads/${thread.id}/read`, { method: "POST" });
    state.current = body.data;
  }
  await refreshThreads();
  $("reply").focus();
}

function renderHead() {
  const a = state.current.attributes;
  $("guest").textContent = a.title;
  $("thread-meta").textContent = `${provider(a.provider)} · ${count(a.message_count, "message", "messages")}${a.is_closed ? " · closed" : ""}`;
  $("toggle-closed").textContent = a.is_closed ? "Reopen" : "Close";
}

// Page 1 is the newest MESSAGES; `older` adds the next page above. Pages shift as messages arrive,
// so they are merged by id rather than trusted by position.
async function loadMessages({ toBottom = false, older = false } = {}) {
  const box = $("messages");
  const fromBottom = box.scrollHeight - box.scrollTop;
  const atBottom = fromBottom - box.clientHeight < 40;
  const page = older ? state.messagePages + 1 : 1;
  const query = new URLSearchParams({ "pagination[limit]": String(MESSAGES), "pagination[page]": String(page) });
  const body = await api(`/message_threads/${state.current.id}/messages?${query}`);
  if (older) state.messagePages = page;
  const known = new Map((toBottom ? [] : state.messages).map((message) => [message.id, message]));
  for (const message of body.data.slice().reverse()) known.set(message.id, message);
  state.messages = [...known.values()].sort((a, b) => a.attributes.inserted_at.localeCompare(b.attributes.inserted_at));
  state.messageTotal = body.meta.total;
  await loadNotes();
  renderMessages();
  // Anchored: new messages scroll into view only for a reader already at the bottom, and earlier
  // messages loaded above keep the one being read where it was.
  if (toBottom || (atBottom && !older)) box.scrollTop = box.scrollHeight;
  else box.scrollTop = box.scrollHeight - fromBottom;
}

// Internal notes come from their own resource: the guest's conversation never holds them.
async function loadNotes() {
  const query = new URLSearchParams({ "pagination[limit]": String(NOTES) });
  const body = await api(`/message_threads/${state.current.id}/notes?${query}`);
  state.notes = body.data;
}

// Messages and notes by time; while earlier messages are not shown, neither are the notes of their time.
function renderMessages() {
  const older = state.messages.length < state.messageTotal;
  const oldest = older && state.messages.length ? state.messages[0].attributes.inserted_at : "";
  const notes = state.notes.filter((note) => note.attributes.inserted_at >= oldest);
  const items = [...state.messages, ...notes].sort((a, b) => a.attributes.inserted_at.localeCompare(b.attributes.inserted_at));
  $("message-list").replaceChildren(...items.map((item) => (item.type === "note" ? noteItem(item) : messageItem(item))));
  $("older").hidden = !older;
}

function noteItem(note) {
  const a = note.attributes;
  const item = el("li", "message note");
  item.dataset.id = note.id;
  item.append(el("p", "note-label", `Internal note · ${a.author_email || "a former colleague"}`),
              el("p", "text", a.message), el("p", "stamp", utc(a.inserted_at).toLocaleString()));
  return item;
}

function messageItem(message) {
  const a = message.attributes;
  const item = el("li", `message ${a.sender}`);
  item.dataset.id = message.id;
  if (a.sender === "system" && a.meta) {
    item.append(inquiryCard(a.meta));
  } else if (a.message) {
    item.append(el("p", "text", a.message));
  }
  for (const [index, url] of a.attachments.entries()) {
    const link = el("button", "file link", `Download attachment ${index + 1}`);
    link.type = "button";
    link.addEventListener("click", () => download(url));
    item.append(link);
  }
  const foot = el("p", "stamp", utc(a.inserted_at).toLocaleString());
  if (a.sender === "property" && a.delivery) foot.append(` · ${a.delivery}`);
  item.append(foot);
  return item;
}

function inquiryCard(meta) {
  const d = meta.booking_details || {};
  const card = el("div", "inquiry");
  card.append(el("strong", null, `Inquiry · ${d.listing_name || ""}`));
  const facts = el("dl");
  const guests = [count(d.number_of_adults, "adult", "adults"), count(d.number_of_children, "child", "children"),
                  count(d.number_of_infants, "infant", "infants"), count(d.number_of_pets, "pet", "pets")];
  for (const [term, value] of [["Dates", `${d.checkin_date} → ${d.checkout_date} (${d.nights} nights)`],
                               ["Guests", guests.filter(Boolean).join(", ")],
                               ["Payout", `${d.expected_payout_amount_accurate} ${d.currency}`],
                               ["Answer by", d.non_response_at ? new Date(d.non_response_at).toLocaleString() : ""],
                               ["Status", meta.status]]) {
    facts.append(el("dt", null, term), el("dd", null, value));
  }
  card.append(facts);
  return card;
}

function count(n, one, many) {
  return n ? `${n} ${n === 1 ? one : many}` : "";
}

// Attachments need the session token, so they are fetched here and handed over as a blob.
async function download(url) {
  try {
    const response = await api(new URL(url, location.href).pathname.replace(API, ""), { raw: true });
    const disposition = response.headers.get("Content-Disposition") || "";
    const name = decodeURIComponent((disposition.match(/filename\*=UTF-8''([^;]+)/) || [])[1] || "attachment");
    const link = el("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (error) {
    notice(error.message);
  }
}

// --- replying ---------------------------------------------------------------------------------

async function send(event) {
  event.preventDefault();
  const text = $("reply").value.trim();
  if (!text && !state.file) return notice("Write a message or attach a file.");
  $("send").disabled = true;
  try {
    const message = {};
    if (text) message.message = text;
    if (state.file) message.attachment_id = await upload(state.file);
    await api(`/message_threads/${state.current.id}/messages`, { method: "POST", body: { message } });
    $("reply").value = "";
    clearFile();
    notice("");
    await loadMessages({ toBottom: true });
    await refreshThreads();
  } catch (error) {
    notice(error.message);
  } finally {
    $("send").disabled = false;
  }
}

async function saveNote() {
  const text = $("reply").value.trim();
  if (!text) return notice("Write the note in the box first.");
  $("add-note").disabled = true;
  try {
    await api(`/message_threads/${state.current.id}/notes`, { method: "POST", body: { note: { message: text } } });
    $("reply").value = "";
    notice("");
    await loadMessages();
  } catch (error) {
    notice(error.message);
  } finally {
    $("add-note").disabled = false;
  }
}

async function upload(file) {
  const data = await new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(",", 2)[1]);
    reader.onerror = () => reject(new Error("the file could not be read"));
    reader.readAsDataURL(file);
  });
  const body = await api("/attachments", {
    method: "POST",
    body: { attachment: { file: data, file_name: file.name, file_type: file.type || "application/octet-stream" } },
  });
  return body.data.id;
}

function clearFile() {
  state.file = null;
  $("file").value = "";
  $("file-name").textContent = "Attach a file…";
}

async function toggleClosed() {
  const action = state.current.attributes.is_closed ? "open" : "close";
  try {
    const body = await api(`/message_threads/${state.current.id}/${action}`, { method: "POST" });
    state.current = body.data;
    renderHead();
    await refreshThreads();
  } catch (error) {
    notice(error.message);
  }
}

// --- live updates ------------------------------------------------------------------------------

async function poll() {
  if (!state.session || document.hidden) return;
  try {
    await refreshThreads();
    if (state.current) {
      const fresh = state.threads.find((thread) => thread.id === state.current.id);
      if (fresh && fresh.attributes.last_message_received_at !== state.current.attributes.last_message_received_at) {
        state.current = fresh;
        renderHead();
        await loadMessages();
        if (fresh.attributes.unread_count > 0) await api(`/message_threads/${fresh.id}/read`, { method: "POST" });
      } else if (fresh) {
        const known = state.notes.map((note) => note.id).join();
        await loadNotes();  // a colleague's note moves no message
        if (state.notes.map((note) => note.id).join() !== known) renderMessages();
      }
    }
  } catch (error) {
    if (state.session) notice(error.message);
  }
}

// --- wiring -----------------------------------------------------------------------------------

function bind() {
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.addEventListener("click", () => {
      state.filter = button.dataset.filter;
      state.threadPages = 1;
      for (const other of document.querySelectorAll("[data-filter]")) other.setAttribute("aria-pressed", String(other === button));
      refreshThreads().catch((error) => notice(error.message));
    });
  }
  let typing;
  $("search").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      state.search = $("search").value.trim();
      state.threadPages = 1;
      refreshThreads().catch((error) => notice(error.message));
    }, 250);
  });
  $("more-threads").addEventListener("click", () => {
    state.threadPages += 1;
    refreshThreads().catch((error) => notice(error.message));
  });
  $("older").addEventListener("click", () => {
    loadMessages({ older: true }).catch((error) => notice(error.message));
  });
  $("back").addEventListener("click", () => {
    document.body.classList.remove("reading");
    $("conversation").hidden = true;
    state.current = null;
    refreshThreads().catch((error) => notice(error.message));
  });
  $("toggle-closed").addEventListener("click", toggleClosed);
  $("compose").addEventListener("submit", send);
  $("add-note").addEventListener("click", saveNote);
  $("reply").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) send(event);
  });
  $("file").addEventListener("change", () => {
    state.file = $("file").files[0] || null;
    $("file-name").textContent = state.file ? `Attached: ${state.file.name}` : "Attach a file…";
  });
}

start().catch((error) => notice(error.message));
