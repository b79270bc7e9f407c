// The prep page: a board. The battle drawn by the server (its picture and the regions one clicks and
// drags to), a panel that edits one element, a list of every element. Every check, every word and every
// rule is the server's (the rule set's binding); this script keeps the draft, its history (undo/redo),
// its copy in the page's storage (a reload loses nothing) and the version of FILE it was opened from.
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("prep-data").textContent);
  const F = data.page.fields, W = { ...data.page.words, ...data.shell };
  const KINDS = data.page.kinds;
  const KIND = Object.fromEntries(KINDS.map((k) => [k.kind, k]));
  const LISTS = KINDS.map((k) => k.kind);
  const token = document.querySelector('meta[name="toride-token"]').getAttribute("content");
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
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));

  // --- the state ------------------------------------------------------------------------------------
  let draft = emptyDraft();
  let version = null;          // the version of FILE this draft was opened from (or last saved as)
  let fileInfo = null;         // FILE (name, path), or null: the page saves by downloading
  let uploaded = null;         // the name of a file opened from the computer (saved by downloading)
  let savedJson = JSON.stringify(draft);
  let undoStack = [], redoStack = [], lastEdit = { key: null, at: 0 };
  let selected = null;         // {kind, index} or {kind: "settings"} or null
  let answer = { refusals: [], notes: [] }, regions = null, problemAt = -1;
  let checkSeq = 0, oddsSeq = 0, timer = null, started = false;

  function emptyDraft() {
    const d = { base: {}, settings: {} };
    for (const kind of LISTS) d[kind] = [];
    return d;
  }
  const snapshot = () => JSON.stringify(draft);
  const storageKey = () => "toride-prep:" + (fileInfo ? fileInfo.path : "new");

  const post = async (url, body, raw) => {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Toride-Token": token },
      body: raw ? body : JSON.stringify(body),
    });
    const json = await response.json();
    json.httpStatus = response.status;
    return json;
  };
  const status = (text) => { $("status").textContent = text || ""; };

  // --- edits, history and the page's storage ----------------------------------------------------------
  // every change of the draft goes through edit(): one step of undo (typing in one field is one step)
  function edit(change, key = null) {
    const before = snapshot();
    change();
    const after = snapshot();
    if (before === after) return;
    const now = Date.now();
    const merge = key !== null && key === lastEdit.key && now - lastEdit.at < 1500;
    if (!merge) undoStack.push(before);
    if (undoStack.length > 500) undoStack.shift();
    redoStack = [];
    lastEdit = { key, at: now };
    changed();
  }

  function travel(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    draft = JSON.parse(from.pop());
    lastEdit = { key: null, at: 0 };
    if (selected && selected.kind !== "settings" && !draft[selected.kind][selected.index]) selected = null;
    renderAll();
    changed();
  }

  function persist() {
    const dirty = snapshot() !== savedJson;
    try {
      if (dirty) localStorage.setItem(storageKey(), JSON.stringify({ draft, version, saved: savedJson, uploaded }));
      else localStorage.removeItem(storageKey());
    } catch (_) { /* a full or forbidden storage: the page still works, a reload asks first */ }
    $("save").classList.toggle("dirty", dirty);
    $("undo").disabled = !undoStack.length;
    $("redo").disabled = !redoStack.length;
  }

  // body[data-pending]: an edit not yet checked, or its check not yet answered (a test waits on it)
  let unchecked = false;
  function changed() {
    persist();
    renderSaveTarget();
    status(W.checking);
    unchecked = true;
    document.body.dataset.pending = "1";
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }

  window.addEventListener("beforeunload", (event) => {
    if (started && snapshot() !== savedJson) { event.preventDefault(); event.returnValue = ""; }
  });

  // --- elements: their names, places and fields ---------------------------------------------------------
  function fieldsOf(kind, form) {
    return (F[kind] || []).filter((f) => !f.when || Object.entries(f.when).every(([k, vs]) => vs.map(String).includes(String(form[k]))));
  }
  function choiceWords(kind, name, value) {
    const field = (F[kind] || []).find((f) => f.name === name);
    if (!field || !field.choices) return value;
    const found = field.choices.find(([v]) => v === value);
    return found ? found[1] : value;
  }
  function markOf(kind, form) {
    const k = KIND[kind];
    if (!k) return null;
    if (k.mark_field && form[k.mark_field]) return form[k.mark_field];
    return k.mark || (k.mark_field ? k.mark_default : null) || null;
  }
  function titleOf(kind, index) {
    const form = draft[kind][index].form;
    const k = KIND[kind];
    if (form.name) return form.name;
    if (k.title_fields) {
      const parts = k.title_fields.map((n) => choiceWords(kind, n, form[n])).filter((v) => v);
      if (parts.length) return (k.title_prefix || "") + parts.join(" ");
    }
    return fill(W.numbered, { kind: k.one || k.title, n: index + 1 });
  }
  const placeOf = (kind, index) => `$.${kind}[${index}]`;
  function parsePlace(place) {
    let m = /^\$\.(\w+)\[(\d+)\](?:\.(\w+))?/.exec(place);
    if (m && KIND[m[1]]) return { kind: m[1], index: +m[2], field: m[3] || null };
    m = /^\$\.(\w+)$/.exec(place);
    if (m && F.settings.some((f) => f.name === m[1])) return { kind: "settings", field: m[1] };
    // a piece of the battle's own (the ballista): its fields are the settings'
    if (m && !KIND[m[1]] && m[1] !== "sheet" && m[1] !== "odds") return { kind: "settings", field: null, piece: m[1] };
    if (m && KIND[m[1]]) return { kind: m[1], index: null, field: null };
    m = /^\$\.(\w+)\.(\w+)$/.exec(place);
    if (m && (m[1] === "sheet" || m[1] === "odds")) return { tool: m[1], field: m[2] };
    return { kind: null };
  }
  const refusalsAt = (prefix) => answer.refusals.filter((r) => r.place === prefix || r.place.startsWith(prefix + ".") || r.place.startsWith(prefix + "["));

  function names() {
    const all = new Set();
    for (const kind of LISTS) for (const item of draft[kind]) if (item.form.name) all.add(item.form.name);
    return all;
  }
  function copyName(name, taken) {
    const stem = name.replace(/[0-9０-９]+$/, "");
    for (let n = 2; ; n++) { const next = stem + n; if (!taken.has(next)) { taken.add(next); return next; } }
  }
  function blank(kind, preset = {}) {
    const form = {};
    for (const field of F[kind]) form[field.name] = field.default ?? (field.required && field.choices ? field.choices[0][0] : "");
    for (const [k, v] of Object.entries(preset)) if (k in form) form[k] = v;
    return { base: {}, form };
  }

  // --- controls -------------------------------------------------------------------------------------------
  function control(field, id, value, place, onInput) {
    const wrap = el("div", { class: "field", "data-name": field.name });
    const errId = id + "-refusal";
    let input;
    const label = el("label", { for: id, text: field.label });
    if (field.check) {
      input = el("input", { type: "checkbox", id, "aria-describedby": errId });
      input.checked = value === true || value === "true";
      wrap.append(el("div", { class: "check" }, input, label));
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
      wrap.append(label, input);
    }
    if (field.help && field.help !== field.label) {
      const help = el("details", { class: "help" }, el("summary", { "aria-label": fill(W.help_of, { field: field.label }), text: "?" }),
        el("p", { text: field.help }));
      wrap.querySelector("label").after(help);
    }
    input.dataset.field = field.name;
    input.dataset.place = place;
    input.addEventListener(field.check || field.choices ? "change" : "input", () =>
      onInput(field.check ? input.checked : input.value));
    wrap.append(el("p", { class: "refusal", id: errId, "data-place": place, role: "alert" }));
    return wrap;
  }

  // --- the panel: one element (or the battle's settings) -----------------------------------------------------
  function select(target, focusField = null) {
    selected = target;
    renderPanel();
    renderList();
    renderMapLayer();
    const panel = $("panel");
    if (!target) { panel.hidden = true; return; }
    panel.hidden = false;
    const input = focusField
      ? panel.querySelector(`[data-field="${CSS.escape(focusField)}"]`) : panel.querySelector("input, select");
    if (input) { input.focus({ preventScroll: true }); input.scrollIntoView({ block: "nearest" }); }
  }

  function renderPanel() {
    const panel = $("panel"), box = $("panel-fields");
    box.replaceChildren();
    $("panel-refusal").dataset.place = "";
    if (!selected) { panel.hidden = true; return; }
    const { kind, index } = selected;
    if (kind === "settings") {
      $("panel-title").textContent = W.settings;
      $("panel-mark").hidden = true;
      $("panel-actions").hidden = true;
      for (const field of fieldsOf("settings", draft.settings)) {
        box.append(control(field, `settings-${field.name}`, draft.settings[field.name], `$.${field.name}`,
          (value) => {
            edit(() => { draft.settings[field.name] = value; }, `settings.${field.name}`);
            if (F.settings.some((f) => f.when && field.name in f.when)) {
              renderPanel(); box.querySelector(`[data-field="${field.name}"]`).focus();
            }
          }));
      }
    } else {
      const item = draft[kind][index];
      const place = placeOf(kind, index);
      $("panel-title").textContent = titleOf(kind, index);
      const mark = markOf(kind, item.form);
      $("panel-mark").hidden = !mark;
      if (mark) $("panel-mark").src = `/mark/${mark}.png`;
      $("panel-actions").hidden = false;
      $("panel-refusal").dataset.place = place;
      for (const field of fieldsOf(kind, item.form)) {
        box.append(control(field, `${kind}-${index}-${field.name}`, item.form[field.name], `${place}.${field.name}`,
          (value) => {
            edit(() => { item.form[field.name] = value; }, `${place}.${field.name}`);
            if (field.name === "name") $("panel-title").textContent = titleOf(kind, index);
            if (F[kind].some((f) => f.when && field.name in f.when) || field.name === KIND[kind].mark_field) {
              renderPanel(); box.querySelector(`[data-field="${field.name}"]`).focus();
            }
            renderList();
          }));
      }
    }
    showRefusals();
  }

  // --- the list: one line per element, sorted as the map ---------------------------------------------------------
  function mapOrder() {
    const order = new Map();
    if (regions) {
      let n = 0;
      for (const thing of regions.things) order.set(thing.place, n++);
      for (const more of regions.more) for (const place of more.places) order.set(place, n++);
    }
    return order;
  }
  // a line's words after its title: the choices it has made (type, area ...), its HP, else its numbers
  function lineSummary(kind, form) {
    const shown = fieldsOf(kind, form).filter((f) => f.name !== "name" && form[f.name] !== "" && form[f.name] !== undefined);
    const bits = shown.filter((f) => f.choices).slice(0, 3).map((f) => choiceWords(kind, f.name, form[f.name]));
    const hp = form.hp ?? "", max = form.max_hp ?? "";
    if (hp !== "" || max !== "") bits.push(`HP ${hp !== "" ? hp : max}${max !== "" && hp !== "" && hp !== max ? "/" + max : ""}`);
    if (!bits.length) for (const f of shown.filter((f) => f.numeric).slice(0, 2)) bits.push(`${f.label} ${form[f.name]}`);
    return bits.join(" · ");
  }
  function renderList() {
    const order = mapOrder();
    const lines = [];
    for (const kind of LISTS) draft[kind].forEach((item, index) => lines.push({ kind, index, item }));
    lines.sort((a, b) => {
      const pa = order.get(placeOf(a.kind, a.index)), pb = order.get(placeOf(b.kind, b.index));
      if (pa !== undefined && pb !== undefined) return pa - pb;
      if (pa !== undefined) return -1;
      if (pb !== undefined) return 1;
      return LISTS.indexOf(a.kind) - LISTS.indexOf(b.kind) || a.index - b.index;
    });
    const settingsLine = el("li", {}, lineButton({ kind: "settings" }, null, W.settings,
      draft.settings.title || "",
      answer.refusals.filter((r) => parsePlace(r.place).kind === "settings").length));
    const items = lines.map(({ kind, index, item }) => el("li", {}, lineButton({ kind, index }, markOf(kind, item.form),
      titleOf(kind, index), lineSummary(kind, item.form), refusalsAt(placeOf(kind, index)).length)));
    $("list").replaceChildren(settingsLine, ...items);
  }
  function lineButton(target, mark, title, summary, problems) {
    const isSelected = selected && selected.kind === target.kind && selected.index === target.index;
    const button = el("button", { type: "button", class: "line" + (problems ? " refused" : ""),
      "aria-pressed": isSelected ? "true" : "false",
      "data-place": target.kind === "settings" ? "$" : placeOf(target.kind, target.index) },
    mark ? el("img", { src: `/mark/${mark}.png`, alt: "", width: 24, height: 24 }) : el("span", { class: "nomark" }),
    el("span", { class: "title", text: title }), el("span", { class: "summary", text: summary }),
    problems ? el("span", { class: "problems-mark", text: fill(W.problems_short, { n: problems }) }) : null);
    button.addEventListener("click", () => select(target));
    return button;
  }

  // --- the map: the picture, and a layer of what one clicks and drags ------------------------------------------------
  function renderMapLayer() {
    const layer = $("map-layer");
    layer.replaceChildren();
    if (!regions) return;
    const pct = (box) => ({ left: box[0] / regions.width * 100, top: box[1] / regions.height * 100,
      width: box[2] / regions.width * 100, height: box[3] / regions.height * 100 });
    const place = (node, box) => {
      const p = pct(box);
      node.style.left = p.left + "%"; node.style.top = p.top + "%";
      node.style.width = p.width + "%"; node.style.height = p.height + "%";
      return node;
    };
    // where things can go (shown while dragging), and the add buttons of each area
    const boxes = new Map();
    for (const drop of regions.drops) {
      if (!boxes.has(key(drop.box))) boxes.set(key(drop.box), { box: drop.box, drops: [] });
      boxes.get(key(drop.box)).drops.push(drop);
    }
    for (const { box, drops } of boxes.values()) {
      const zone = place(el("div", { class: "drop", "data-key": key(box), "data-kinds": drops.flatMap((d) => d.kinds).join(" ") }), box);
      zone.dataset.label = drops[0].label || "";
      const adds = el("div", { class: "adds" });
      for (const drop of drops) for (const kind of drop.kinds) adds.append(addButton(kind, drop, true));
      zone.append(adds);
      // a tap on the area itself (not on a piece): what can be added there, in the bar under the map
      zone.addEventListener("click", (event) => { if (event.target === zone) showAdds(drops); });
      layer.append(zone);
    }
    for (const thing of regions.things) {
      const target = parsePlace(thing.place);
      if (target.kind === "settings") {
        const node = place(el("button", { type: "button", class: "thing", "data-place": thing.place,
          "aria-label": thing.label || W.settings, title: thing.label || W.settings }), thing.box);
        node.addEventListener("click", () => select({ kind: "settings" }));
        layer.append(node);
        continue;
      }
      if (!target.kind || target.index === null || !draft[target.kind] || !draft[target.kind][target.index]) continue;
      const refused = refusalsAt(thing.place).length > 0;
      const isSelected = selected && selected.kind === target.kind && selected.index === target.index;
      const node = place(el("button", { type: "button", class: "thing" + (refused ? " refused" : "") + (isSelected ? " selected" : ""),
        "data-place": thing.place, "aria-label": thing.label || titleOf(target.kind, target.index),
        title: thing.label || titleOf(target.kind, target.index) }), thing.box);
      draggable(node, target);
      layer.append(node);
    }
    for (const more of regions.more) {
      const node = place(el("button", { type: "button", class: "thing more", "aria-label": fill(W.more, { n: more.places.length }) }), more.box);
      node.addEventListener("click", () => {
        const first = parsePlace(more.places[0]);
        if (first.kind) select(first);
        for (const p of more.places) { const line = document.querySelector(`#list [data-place="${CSS.escape(p)}"]`); if (line) line.classList.add("flash"); }
      });
      layer.append(node);
    }
  }

  function addButton(kind, drop, onMap) {
    const words = fill(W.add_at, { kind: KIND[kind].one || KIND[kind].title, at: drop.label || "" });
    const add = el("button", { type: "button", class: onMap ? "add-here" : "add", "data-kind": kind,
      "aria-label": onMap ? words : null, title: onMap ? words : null, text: (onMap ? "+" : "+ ") + (KIND[kind].one || KIND[kind].title) });
    add.addEventListener("click", () => { $("area-adds").hidden = true; addElement(kind, { ...drop.set, ...(drop.add || {}) }); });
    return add;
  }

  function showAdds(drops) {
    if (selected) select(null);  // on a phone the panel would cover the bar
    const bar = $("area-adds");
    bar.replaceChildren(el("span", { class: "where", text: fill(W.add_here, { at: drops[0].label || "" }) }));
    for (const drop of drops) for (const kind of drop.kinds) bar.append(addButton(kind, drop, false));
    bar.hidden = false;
  }

  function draggable(node, target) {
    let start = null, dragging = false;
    node.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      start = { x: event.clientX, y: event.clientY };
      node.setPointerCapture(event.pointerId);
    });
    node.addEventListener("pointermove", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x, dy = event.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) > 6) { dragging = true; $("map").classList.add("dragging"); $("map").dataset.kind = target.kind; }
      if (dragging) {
        node.style.transform = `translate(${dx}px, ${dy}px)`;
        const over = dropAt(event, target.kind);
        for (const zone of document.querySelectorAll(".drop")) zone.classList.toggle("over", over !== null && zone === over.zone);
      }
    });
    const end = (event, cancelled) => {
      if (!start) return;
      const wasDragging = dragging;
      start = null; dragging = false;
      $("map").classList.remove("dragging");
      node.style.transform = "";
      if (!wasDragging) { if (!cancelled) select(target); return; }
      const over = cancelled ? null : dropAt(event, target.kind);
      if (over) moveTo(target, over.drop);
      else renderMapLayer();
    };
    node.addEventListener("pointerup", (event) => end(event, false));
    node.addEventListener("pointercancel", (event) => end(event, true));
    node.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(target); } });
  }

  const key = (box) => box.join(",");
  // the drop under the pointer that takes ``kind`` (its zone on the layer, and what it sets)
  function dropAt(event, kind) {
    if (!regions) return null;
    const rect = $("map-picture").getBoundingClientRect();
    const x = (event.clientX - rect.left) / rect.width * regions.width, y = (event.clientY - rect.top) / rect.height * regions.height;
    const drop = regions.drops.find(({ box: [bx, by, bw, bh], kinds }) =>
      kinds.includes(kind) && x >= bx && x < bx + bw && y >= by && y < by + bh);
    if (!drop) return null;
    return { drop, zone: document.querySelector(`.drop[data-key="${CSS.escape(key(drop.box))}"]`) };
  }

  function moveTo(target, drop) {
    const item = draft[target.kind][target.index];
    const names = new Set(F[target.kind].map((f) => f.name));
    edit(() => { for (const [k, v] of Object.entries(drop.set)) if (names.has(k)) item.form[k] = v; });
    status(fill(W.moved, { name: titleOf(target.kind, target.index), at: drop.label || "" }));
    renderAll();
  }

  function addElement(kind, preset) {
    edit(() => { draft[kind].push(blank(kind, preset)); });
    renderAll();
    select({ kind, index: draft[kind].length - 1 });
  }

  // --- refusals: beside their fields, counted in the bar --------------------------------------------------------------
  function showRefusals() {
    for (const node of document.querySelectorAll(".refusal")) { node.textContent = ""; node.classList.remove("note"); }
    for (const node of document.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    for (const { place, text } of answer.notes || []) {
      const node = document.querySelector(`.refusal[data-place="${CSS.escape(place)}"]`);
      if (node) { node.textContent = text; node.classList.add("note"); }
    }
    for (const { place, text } of answer.refusals) {
      let at = place, node = null;
      while (!node) {
        node = document.querySelector(`.refusal[data-place="${CSS.escape(at)}"]`);
        if (node || at === "$") break;
        at = at.replace(/(\.[^.[\]]+|\[\d+\])$/, "") || "$";
      }
      if (!node) {
        // an element not in the panel: its line in the list says it; the bar counts it
        continue;
      }
      if (node.classList.contains("note")) { node.textContent = ""; node.classList.remove("note"); }
      node.textContent = node.textContent ? node.textContent + " " + text : text;
      const input = node.parentElement.querySelector("input, select");
      if (input && node.parentElement.classList.contains("field")) input.setAttribute("aria-invalid", "true");
    }
    const n = answer.refusals.length;
    $("problems").hidden = n === 0;
    $("problem-count").textContent = fill(W.problems, { n });
  }

  function nextProblem() {
    if (!answer.refusals.length) return;
    problemAt = (problemAt + 1) % answer.refusals.length;
    const { place } = answer.refusals[problemAt];
    const target = parsePlace(place);
    if (target.tool) { const input = $(`${target.tool}-${target.field}`); if (input) { input.focus(); input.scrollIntoView({ block: "center" }); } return; }
    if (target.kind === "settings") select({ kind: "settings" }, target.field);
    else if (target.kind && target.index !== null) select({ kind: target.kind, index: target.index }, target.field);
    else { const node = document.querySelector('.refusal[data-place="$"]'); node.scrollIntoView({ block: "center" }); }
    const shown = document.querySelector(`.refusal[data-place="${CSS.escape(place)}"]`);
    if (shown && !shown.closest("#panel")) shown.scrollIntoView({ block: "center" });
  }

  // --- talking to the server ---------------------------------------------------------------------------------------
  async function check() {
    const seq = ++checkSeq;
    unchecked = false;
    document.body.dataset.pending = "1";
    const got = await post("/api/check", draft);
    if (seq !== checkSeq) return;
    answer = { refusals: got.refusals || [], notes: got.notes || [], document: got.document };
    if (got.map) {
      const img = $("map-picture");
      img.src = got.map; img.hidden = false;
      regions = got.regions || null;
    }
    problemAt = -1;
    // what an edit said (moved, removed ...) stays; "checking" gives way to the check's answer
    if (got.document === null) status(W.not_saved);
    else if ([W.checking, W.not_saved].includes($("status").textContent)) status("");
    renderPanelTitle();
    showRefusals();
    renderList();
    renderMapLayer();
    document.body.dataset.checked = String(seq);
    if (!unchecked) delete document.body.dataset.pending;
  }
  function renderPanelTitle() {
    if (selected && selected.kind !== "settings" && draft[selected.kind][selected.index]) $("panel-title").textContent = titleOf(selected.kind, selected.index);
  }

  function renderSaveTarget() {
    const target = fileInfo && !uploaded ? fill(W.save_to, { file: fileInfo.name }) : fill(W.save_download, { file: downloadName() });
    $("file-name").textContent = target;
    $("file-name").title = fileInfo && !uploaded ? fileInfo.path : "";
  }
  function downloadName() {
    if (uploaded) return uploaded;
    if (fileInfo) return fileInfo.name;
    return `${(draft.settings.title || "").replace(/[\\/:*?"<>|]/g, "_").trim() || data.page.file_stem}.json`;
  }

  async function open(file) {
    const got = await post("/api/open", await file.arrayBuffer(), true);
    if (!got.draft) { answer.refusals = got.refusals || []; showRefusals(); status(W.not_saved); return; }
    edit(() => { draft = got.draft; });
    uploaded = file.name;
    selected = null;
    renderAll();
    status(fill(W.opened_upload, { file: file.name }));
  }

  async function save(replace = null) {
    clearTimeout(timer);
    if (!fileInfo || uploaded) return saveAs();
    const asked = { draft, version };
    if (replace !== null) asked.replace = replace;
    const got = await post("/api/save", asked);
    if (got.stale) {
      if (window.confirm(got.stale.text + "\n\n" + got.stale.question)) return save(got.stale.replace);
      status(got.stale.text);
      return;
    }
    answer.refusals = got.refusals || [];
    showRefusals();
    if (!got.document) { status(W.not_saved); if (answer.refusals.length) nextProblem(); return; }
    version = got.version;
    savedJson = snapshot();
    persist();
    status(got.written + " " + got.next);
  }

  async function saveAs() {
    clearTimeout(timer);
    const got = await post("/api/check", draft);
    answer.refusals = got.refusals || [];
    showRefusals();
    if (!got.document) { status(W.not_saved); if (answer.refusals.length) nextProblem(); return; }
    const text = JSON.stringify(got.document, null, 2) + "\n";
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: downloadName() });
    document.body.append(link); link.click(); link.remove();
    if (!fileInfo || uploaded) { savedJson = snapshot(); persist(); }
    status(fill(W.downloaded, { file: downloadName() }) + " " + W.next);
  }

  async function addSheet() {
    const file = $("sheet-file").files[0];
    const form = {};
    for (const input of $("sheet-fields").querySelectorAll("[data-field]")) form[input.dataset.field] = input.value;
    const asked = { url: $("sheet-url").value, form, draft: { ...emptyDraft(), base: draft.base, settings: draft.settings } };
    if (file && !asked.url.trim()) { asked.text = await file.text(); asked.filename = file.name; }
    const got = await post("/api/sheet", asked);
    answer.refusals = got.refusals || [];
    showRefusals();
    if (!got.items) return;
    edit(() => { draft.units.push(...got.items); });
    renderAll();
    status(W.sheet_added);
  }

  async function odds() {
    const seq = ++oddsSeq;
    const options = {};
    for (const input of $("odds-fields").querySelectorAll("[data-field]"))
      options[input.dataset.field] = input.type === "checkbox" ? input.checked : input.value;
    $("odds-text").textContent = W.running;
    const got = await post("/api/odds", { draft, options });
    if (got.replaced || seq !== oddsSeq) return;
    answer.refusals = got.refusals || [];
    showRefusals();
    if (!got.text) { $("odds-text").textContent = ""; return; }
    $("odds-text").textContent = got.text;
    const chart = $("odds-chart"); chart.src = got.chart; chart.hidden = false;
  }

  function renderAll() { renderPanel(); renderList(); renderMapLayer(); renderSaveTarget(); }

  // --- the panel's buttons, the header's, the keys ----------------------------------------------------------------
  $("duplicate").addEventListener("click", () => {
    if (!selected || selected.kind === "settings") return;
    const { kind, index } = selected;
    const item = draft[kind][index];
    const n = Math.max(1, Math.min(50, parseInt($("duplicate-count").value, 10) || 1));
    edit(() => {
      const taken = names();
      const copies = [];
      for (let i = 0; i < n; i++) {
        const copy = JSON.parse(JSON.stringify(item));
        if ("name" in copy.form && item.form.name) copy.form.name = copyName(item.form.name, taken);
        copies.push(copy);
      }
      draft[kind].splice(index + 1, 0, ...copies);
    });
    select({ kind, index: index + 1 });
  });
  $("remove").addEventListener("click", () => {
    if (!selected || selected.kind === "settings") return;
    const { kind, index } = selected;
    const title = titleOf(kind, index);
    edit(() => { draft[kind].splice(index, 1); });
    select(null);
    status(fill(W.removed, { name: title }));
    $("undo").focus();
  });
  $("panel-close").addEventListener("click", () => select(null));
  $("undo").addEventListener("click", () => travel(undoStack, redoStack));
  $("redo").addEventListener("click", () => travel(redoStack, undoStack));
  document.addEventListener("keydown", (event) => {
    const inField = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !inField) {
      event.preventDefault(); travel(event.shiftKey ? redoStack : undoStack, event.shiftKey ? undoStack : redoStack);
    }
    if (event.key === "Escape" && selected) select(null);
  });
  $("open-file").addEventListener("change", (event) => { if (event.target.files[0]) open(event.target.files[0]); event.target.value = ""; });
  $("save").addEventListener("click", () => save());
  $("save-as").addEventListener("click", saveAs);
  $("problem-next").addEventListener("click", nextProblem);
  for (const kind of LISTS) {
    const button = el("button", { type: "button", class: "add", "data-kind": kind, text: KIND[kind].add });
    button.addEventListener("click", () => addElement(kind, {}));
    $("adds").append(button);
  }
  if ($("sheet-fields")) {
    for (const field of F.sheet) $("sheet-fields").append(control(field, `sheet-${field.name}`,
      field.required && field.choices ? field.choices[0][0] : "", `$.sheet.${field.name}`, () => {}));
    $("sheet-add").addEventListener("click", addSheet);
  }
  if ($("odds-fields")) {
    for (const field of F.odds) $("odds-fields").append(control(field, `odds-${field.name}`,
      field.default ?? "", `$.odds.${field.name}`, () => {}));
    $("odds-run").addEventListener("click", odds);
  }

  fetch("/api/start", { headers: { "X-Toride-Token": token } }).then((r) => r.json()).then((got) => {
    fileInfo = got.file || null;
    version = got.version ?? null;
    draft = got.draft;
    savedJson = snapshot();
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(storageKey()) || "null"); } catch (_) { kept = null; }
    if (kept && kept.draft && JSON.stringify(kept.draft) !== savedJson) {
      // the edits this page had not saved when it was closed or reloaded: back, and one undo away from FILE's
      undoStack.push(savedJson);
      draft = kept.draft;
      version = kept.version ?? version;
      uploaded = kept.uploaded || null;
      status(W.restored);
    }
    started = true;
    renderAll();
    persist();
    if (got.refusals) { answer.refusals = got.refusals; showRefusals(); }
    check();
  });
})();
