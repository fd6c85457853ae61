"use strict";
// The card capture form (backend/vault/card_form.py). The page that frames it asks it to "validate" or "submit"
// by postMessage; only the sites the operator allowed are answered, each at its own origin. The card goes to the
// vault on this very listener; the page gets it back masked, with its token, and never the number.

const FIELDS = ["card_number", "cardholder_name", "expiration_month", "expiration_year", "service_code"];
const token = new URLSearchParams(location.search).get("session_token") || "";
history.replaceState(null, "", location.pathname); // the session token out of the address bar
const allowed = document.querySelector('meta[name="frontdesk-origins"]').content.split(" ").filter(Boolean);
const form = document.getElementById("card");
const status = document.getElementById("status");
let sending = false;

function allows(origin) {
  return allowed.includes("*") || allowed.includes(origin);
}

function values() {
  return Object.fromEntries(FIELDS.map((name) => [name, document.getElementById(name).value.trim()]));
}

function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

// The checks a guest can fix before anything is sent; the vault checks all of them again.
function problems(card) {
  const found = {};
  const digits = card.card_number.replace(/[ -]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) found.card_number = ["is not a valid card number"];
  if (!card.cardholder_name) found.cardholder_name = ["is required"];
  if (!/^\d{1,2}$/.test(card.expiration_month) || +card.expiration_month < 1 || +card.expiration_month > 12) {
    found.expiration_month = ["must be a month from 1 to 12"];
  }
  if (!/^(\d{2}|\d{4})$/.test(card.expiration_year)) found.expiration_year = ["must have 2 or 4 digits"];
  if (!/^\d{3,4}$/.test(card.service_code)) found.service_code = ["must have 3 or 4 digits"];
  return found;
}

function show(details) {
  form.querySelectorAll(".error").forEach((node) => node.remove());
  for (const name of FIELDS) {
    const input = document.getElementById(name);
    const messages = (details && details[name]) || [];
    input.setAttribute("aria-invalid", messages.length ? "true" : "false");
    if (messages.length) {
      const note = document.createElement("span");
      note.className = "error";
      note.textContent = messages.join("; ");
      input.after(note);
    }
  }
}

function reply(origin, message) {
  window.parent.postMessage(message, origin);
}

async function submit(origin) {
  if (sending) return;
  const card = values();
  const found = problems(card);
  show(found);
  if (Object.keys(found).length) {
    reply(origin, { error: { code: "validation_error", details: found } });
    return;
  }
  sending = true;
  status.textContent = "Saving the card…";
  try {
    const response = await fetch(`capture_form/cards?session_token=${encodeURIComponent(token)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ card }),
    });
    const body = await response.json();
    if (!response.ok) {
      show(body.errors.details);
      status.textContent = response.status === 401 ? "This form has expired: reload the page." : "Please check the card.";
      reply(origin, { error: body.errors });
      return;
    }
    const kept = body.data.attributes;
    form.reset(); // the number leaves this page too
    show({});
    status.textContent = `Card ${kept.card_number} saved.`;
    reply(origin, { card: kept });
  } catch (_) {
    status.textContent = "The card could not be saved; try again.";
    reply(origin, { error: { code: "unreachable", title: "Unreachable" } });
  } finally {
    sending = false;
  }
}

window.addEventListener("message", (event) => {
  if (event.source !== window.parent || !allows(event.origin)) return;
  if (event.data === "submit") {
    submit(event.origin);
  } else if (event.data === "validate") {
    const found = problems(values());
    show(found);
    reply(event.origin, { valid: Object.keys(found).length === 0, errors: found });
  }
});
