// Signing in with a staff key file, in the browser: the key never leaves this page. The file
// `ledger key new staff ID` wrote is read here, the sign-in is signed here with WebCrypto's
// Ed25519, and only the signature is sent; the server adds its own terminal signature over the
// same bytes (the canonical JSON of the envelope without signatures, as every command is).
// The sign-in is for this ledger (its id is in the page) and answers the server's challenge,
// which it accepts once and for a short while: the page's own, or a new one once it expires.
(function () {
  "use strict";
  const form = document.getElementById("sign-in");
  const said = document.getElementById("said");
  const PKCS8_ED25519 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65,
                         0x70, 0x04, 0x22, 0x04, 0x20];

  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value !== null && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(
        (k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  function bytes(base64) { return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)); }

  async function challenge() {
    const given = form.dataset.challenge;
    if (given && Date.parse(form.dataset.expires) - Date.now() > 5000) {
      form.dataset.challenge = "";  // used once: a second try asks for another
      return given;
    }
    const answer = await fetch("/v1/sessions/challenge", { method: "POST" });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error.message);
    return body.challenge;
  }

  async function signIn(event) {
    event.preventDefault();
    said.textContent = "";
    try {
      const file = form.elements.key.files[0];
      if (!file) throw new Error("choose your key file first");
      let key;
      try { key = JSON.parse(await file.text()); } catch (e) {
        throw new Error("that file is not a ledger key file");
      }
      if (key.kind !== "staff") throw new Error("that is a " + key.kind + " key: sign in with your staff key");
      const seed = bytes(key.private_key);
      const secret = await crypto.subtle.importKey(
        "pkcs8", new Uint8Array([...PKCS8_ED25519, ...seed]), { name: "Ed25519" }, false, ["sign"]);
      const command = { command: "sign_in", command_id: crypto.randomUUID(),
                        at: new Date().toISOString(), challenge: await challenge() };
      const unsigned = { protocol: form.dataset.protocol, command: command,
                         terminal: form.dataset.terminal, staff: key.id,
                         ledger: form.dataset.ledger };
      const message = new TextEncoder().encode(canonical(unsigned));
      const signature = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, secret, message));
      const answer = await fetch("/floor/sign-in", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ staff: key.id, command: command,
                               signature: btoa(String.fromCharCode(...signature)) }) });
      const body = await answer.json();
      if (!answer.ok) throw new Error(body.error.message);
      window.location.assign(body.next);
    } catch (error) {
      said.textContent = error.message;
    }
  }
  form.addEventListener("submit", signIn);
})();
