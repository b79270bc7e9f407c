// The prep page: rows from the fields the server gives, every check and every word the server's.
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("prep-data").textContent);
  const F = data.fields, W = data.words;
  const LISTS = ["pcs", "units", "commanders", "traps"];
  let draft = { base: {}, settings: {}, pcs: [], units: [], commanders: [], traps: [] };
  let refused = true, checkSeq = 0, oddsSeq = 0, timer = null;
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...kids) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v; else node.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid) node.append(kid);
    return node;
  };
  const status = (text) => { $("status").textContent = text || ""; };
  // this start's token (bot/prep/guard.py): the server answers only requests that carry it
  const tokenMeta = document.querySelector('meta[name="toride-token"]');
  const token = tokenMeta ? tokenMeta.getAttribute("content") : "";
  const post = async (url, body, raw) => {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Toride-Token": token },
      body: raw ? body : JSON.stringify(body),
    });
    return response.json();
  };

  function markOf(kind, form) {
    if (kind === "pcs") return "pc";
    if (kind === "commanders") return "commander";
    if (kind === "units") return form.type || "normal";
    if (kind === "traps") return form.kind || "barricade";
    return null;
  }

  function control(field, id, value, place, onInput) {
    const wrap = el("div", { class: "field" });
    const errId = id + "-refusal";
    let input;
    if (field.check) {
      input = el("input", { type: "checkbox", id, "aria-describedby": errId });
      input.checked = value === true || value === "true";
      wrap.append(input, el("label", { for: id, text: field.label }));
    } else {
      if (field.choices) {
        input = el("select", { id, "aria-describedby": errId, required: field.required });
        if (!field.required) input.append(el("option", { value: "", text: "" }));
        for (const [v, words] of field.choices) input.append(el("option", { value: v, text: words }));
      } else {
        input = el("input", { type: "text", id, "aria-describedby": errId, required: field.required,
          inputmode: field.numeric ? "numeric" : null, autocomplete: "off" });
      }
      input.value = value ?? "";
      wrap.append(el("label", { for: id, text: field.label }), input);
    }
    input.dataset.field = field.name;
    input.addEventListener(field.check || field.choices ? "change" : "input", () =>
      onInput(field.check ? input.checked : input.value));
    wrap.append(el("p", { class: "refusal", id: errId, "data-place": place, role: "alert" }));
    return wrap;
  }

  function names() {
    const all = new Set();
    for (const kind of ["pcs", "units", "commanders"]) for (const item of draft[kind]) all.add(item.form.name);
    return all;
  }

  function copyName(name, taken) {
    const stem = name.replace(/[0-9０-９]+$/, "");
    for (let n = 2; ; n++) { const next = stem + n; if (!taken.has(next)) { taken.add(next); return next; } }
  }

  function row(kind, index) {
    const item = draft[kind][index];
    const place = `$.${kind}[${index}]`;
    const mark = markOf(kind, item.form);
    const fields = el("div", { class: "fields" });
    const name = el("span", { class: "name", text: item.form.name || W.unnamed });
    const img = el("img", { src: `/mark/${mark}.png`, alt: "", width: 24, height: 24 });
    for (const field of F[kind]) {
      fields.append(control(field, `${kind}-${index}-${field.name}`, item.form[field.name], `${place}.${field.name}`,
        (value) => {
          item.form[field.name] = value;
          if (field.name === "name") name.textContent = value || W.unnamed;
          if (field.name === "type" || field.name === "kind") img.src = `/mark/${markOf(kind, item.form)}.png`;
          changed();
        }));
    }
    const count = el("input", { type: "number", min: 1, max: 50, value: 1, id: `${kind}-${index}-count`, class: "count" });
    const dup = el("button", { type: "button", class: "duplicate", text: W.duplicate });
    dup.addEventListener("click", () => {
      const n = Math.max(1, Math.min(50, parseInt(count.value, 10) || 1));
      const taken = names();
      const copies = [];
      for (let i = 0; i < n; i++) {
        const copy = JSON.parse(JSON.stringify(item));
        if ("name" in copy.form) copy.form.name = copyName(item.form.name || "", taken);
        copies.push(copy);
      }
      draft[kind].splice(index + 1, 0, ...copies);
      render(); changed();
      $(`${kind}-${index + 1}-${F[kind][0].name}`).focus();
    });
    const remove = el("button", { type: "button", class: "remove", text: W.remove });
    remove.addEventListener("click", () => {
      draft[kind].splice(index, 1); render(); changed();
      document.querySelector(`button.add[data-kind="${kind}"]`).focus();
    });
    return el("fieldset", { class: "row", "data-kind": kind, "data-index": index },
      el("legend", {}, img, name), fields,
      el("p", { class: "refusal", "data-place": place, role: "alert" }),
      el("div", { class: "actions" }, el("label", { for: count.id, text: W.duplicate_count }), count, dup, remove));
  }

  function render() {
    const settings = document.querySelector('.rows[data-kind="settings"]');
    const box = el("div", { class: "fields" });
    for (const field of F.settings) {
      box.append(control(field, `settings-${field.name}`, draft.settings[field.name], `$.${field.name}`,
        (value) => { draft.settings[field.name] = value; changed(); }));
    }
    settings.replaceChildren(el("div", { class: "row" }, box));
    for (const kind of LISTS) {
      const rows = document.querySelector(`.rows[data-kind="${kind}"]`);
      rows.replaceChildren(...draft[kind].map((_, i) => row(kind, i)));
    }
  }

  function blank(kind) {
    const form = {};
    for (const field of F[kind]) form[field.name] = field.default ?? (field.required && field.choices ? field.choices[0][0] : "");
    return { base: {}, form };
  }

  function show(refusals, notes) {
    for (const node of document.querySelectorAll(".refusal")) { node.textContent = ""; node.classList.remove("note"); }
    for (const node of document.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    for (const { place, text } of notes || []) {
      // what the bot took otherwise (a move of 15 m is 10 m): said beside its field, nothing refused
      const node = document.querySelector(`.refusal[data-place="${CSS.escape(place)}"]`);
      if (node) { node.textContent = text; node.classList.add("note"); }
    }
    for (const { place, text } of refusals) {
      let at = place, node = null;
      while (!node) {
        node = document.querySelector(`.refusal[data-place="${CSS.escape(at)}"]`);
        if (node || at === "$") break;
        at = at.replace(/(\.[^.[\]]+|\[\d+\])$/, "") || "$";
      }
      if (!node) node = document.querySelector('.refusal[data-place="$"]');
      if (node.classList.contains("note")) { node.textContent = ""; node.classList.remove("note"); }
      node.textContent = node.textContent ? node.textContent + " " + text : text;
      const input = node.parentElement.querySelector("input, select");
      if (input && node.parentElement.classList.contains("field")) input.setAttribute("aria-invalid", "true");
    }
  }

  function setRefused(value) {
    refused = value;
    $("save").disabled = value;
    $("save").setAttribute("aria-describedby", "status");
  }

  function changed() {
    setRefused(true);
    status(W.checking);
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }

  async function check() {
    const seq = ++checkSeq;
    const answer = await post("/api/check", draft);
    if (seq !== checkSeq) return;
    show(answer.refusals, answer.notes);
    setRefused(answer.document === null);
    status(answer.document === null ? W.not_saved : "");
    if (answer.map) { const img = $("map-picture"); img.src = answer.map; img.hidden = false; }
    document.body.dataset.checked = String(seq);
  }

  async function open(file) {
    const answer = await post("/api/open", await file.arrayBuffer(), true);
    if (answer.draft) { draft = answer.draft; render(); status(W.opened); await check(); }
    else { show(answer.refusals); status(W.not_saved); }
  }

  async function save() {
    clearTimeout(timer);
    const answer = await post("/api/save", draft);
    show(answer.refusals);
    if (answer.document === null) { setRefused(true); status(W.not_saved); return; }
    const text = JSON.stringify(answer.document, null, 2) + "\n";
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `${answer.document.title || "fort"}.json` });
    document.body.append(link); link.click(); link.remove();
    status(answer.written || W.saved);
  }

  async function addSheet() {
    const file = $("sheet-file").files[0];
    const form = {};
    for (const input of $("sheet-fields").querySelectorAll("[data-field]")) form[input.dataset.field] = input.value;
    const asked = { url: $("sheet-url").value, form, draft: { ...draft, pcs: [], units: [], commanders: [], traps: [] } };
    if (file && !asked.url.trim()) { asked.text = await file.text(); asked.filename = file.name; }
    const answer = await post("/api/sheet", asked);
    show(answer.refusals);
    if (!answer.items) return;
    draft.units.push(...answer.items);
    render(); status(W.sheet_added); changed();
  }

  async function odds() {
    const seq = ++oddsSeq;
    const options = {};
    for (const input of $("odds-fields").querySelectorAll("[data-field]"))
      options[input.dataset.field] = input.type === "checkbox" ? input.checked : input.value;
    $("odds-text").textContent = W.running;
    const answer = await post("/api/odds", { draft, options });
    if (answer.replaced || seq !== oddsSeq) return;
    show(answer.refusals);
    if (!answer.text) { $("odds-text").textContent = ""; return; }
    $("odds-text").textContent = answer.text;
    const chart = $("odds-chart"); chart.src = answer.chart; chart.hidden = false;
  }

  for (const field of F.sheet) $("sheet-fields").append(control(field, `sheet-${field.name}`,
    field.required && field.choices ? field.choices[0][0] : "", `$.sheet.${field.name}`, () => {}));
  for (const field of F.odds) $("odds-fields").append(control(field, `odds-${field.name}`,
    field.default ?? "", `$.odds.${field.name}`, () => {}));
  for (const button of document.querySelectorAll("button.add")) {
    button.addEventListener("click", () => {
      const kind = button.dataset.kind;
      draft[kind].push(blank(kind)); render(); changed();
      const rows = document.querySelectorAll(`.rows[data-kind="${kind}"] fieldset`);
      rows[rows.length - 1].querySelector("input, select").focus();
    });
  }
  $("open-file").addEventListener("change", (event) => { if (event.target.files[0]) open(event.target.files[0]); });
  $("save").addEventListener("click", save);
  $("sheet-add").addEventListener("click", addSheet);
  $("odds-run").addEventListener("click", odds);
  fetch("/api/start", { headers: { "X-Toride-Token": token } }).then((r) => r.json()).then((answer) => {
    draft = answer.draft; render();
    if (answer.refusals) show(answer.refusals);
    check();
  });
})();
