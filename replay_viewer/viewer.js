// The replay page's script: unpacks the data (gzipped JSON in base64, see page.py), then
// draws one step in one view. Nothing here touches the network.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const esc = (text) => String(text).replace(/[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  // A label with its {places} filled: the label is text (escaped), the values HTML.
  const fill = (label, values) => esc(label).replace(/\{(\w+)\}/g,
    (all, key) => (key in values ? values[key] : all));

  async function unpack(text) {
    const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  // Every view's whole board at every step, from the frames (a frame says what changed).
  function boards(steps, count) {
    const out = [];
    const now = new Array(count).fill(null);
    for (const step of steps) {
      const frames = step[3];
      for (let v = 0; v < count; v++) {
        const frame = frames[v];
        if (Array.isArray(frame)) now[v] = frame;
        else if (frame && typeof frame === "object") {
          const next = now[v].slice(0, frame.n);
          for (let i = 0; i < frame.d.length; i += 2) next[frame.d[i]] = frame.d[i + 1];
          now[v] = next;
        }
      }
      out.push(now.slice());
    }
    return out;
  }

  function start(data) {
    const L = data.labels;
    const S = data.strings;
    const steps = data.steps;
    const seats = data.seats;
    const views = seats.length + 1;
    const all = boards(steps, views);
    const last = steps.length - 1;
    let at = 0;
    let view = 0;
    const slider = $("slider");

    for (const [id, label] of [["first", L.first], ["prev", L.previous], ["next", L.next],
      ["last", L.last]]) {
      $(id).title = label;
      $(id).setAttribute("aria-label", label);
    }
    slider.setAttribute("aria-label", L.step.replace("{step}", "").replace("{steps}", ""));
    $("parties-title").textContent = L.parties;
    $("regions-title").textContent = L.regions;
    $("lines-title").textContent = L.lines;
    $("earlier-title").textContent = L.earlier;
    $("keys").textContent = L.keys;
    $("region-columns").innerHTML = L.columns.split("|").map((c) => `<th>${esc(c)}</th>`).join("");
    slider.max = String(last);

    const tabs = [];
    for (let v = 0; v < views; v++) {
      const tab = document.createElement("button");
      tab.type = "button";
      tab.id = `view-${v}`;
      tab.setAttribute("role", "tab");
      tab.innerHTML = v === 0 ? esc(L.public) : fill(L.seat, { player: seats[v - 1] });
      tab.addEventListener("click", () => { view = v; draw(); });
      $("views").appendChild(tab);
      tabs.push(tab);
    }

    // The lines of step ``n`` that view ``v`` may see (a private line: its seats' views).
    function lines(n, v) {
      const out = [];
      for (const line of steps[n][2]) {
        if (typeof line === "number") out.push([line, false]);
        else if (v > 0 && (line[1] >> (v - 1)) & 1) out.push([line[0], true]);
      }
      return out;
    }
    const item = ([id, secret]) =>
      `<li${secret ? ` class="private" title="${esc(L.private)}"` : ""}>${S[id]}</li>`;

    function draw() {
      const step = steps[at];
      const parts = { H: [], P: [], R: [], F: [], O: [] };
      for (const id of all[at][view]) parts[S[id][0]].push(S[id].slice(1));
      $("head").innerHTML = parts.H.join("");
      $("parties").innerHTML = parts.P.join("");
      if (view > 0) {
        const own = $("parties").querySelector(`[data-seat="${view - 1}"]`);
        if (own) own.classList.add("you");
      }
      $("regions").tBodies[0].innerHTML = parts.R.length
        ? parts.R.join("")
        : `<tr><td colspan="4">${esc(L.noRegions)}</td></tr>`;
      $("foot").innerHTML = parts.F.join("");
      $("own").innerHTML = parts.O.join("");
      const actor = step[0];
      let said = "";
      if (actor >= 0) {
        said = fill(L.acts, { player: seats[actor] });
        if (view === actor + 1 && step[1] >= 0) said += `<span class="chose">${S[step[1]]}</span>`;
      }
      $("actor").innerHTML = said;
      const now = lines(at, view);
      $("lines").innerHTML = now.length ? now.map(item).join("")
        : `<li class="nothing">${esc(L.nothing)}</li>`;
      const before = [];
      for (let n = at - 1; n >= 0 && before.length < 8; n--) before.unshift(...lines(n, view));
      $("earlier").innerHTML = before.slice(-8).map(item).join("");
      $("step-label").textContent = L.step.replace("{step}", at).replace("{steps}", last);
      slider.value = String(at);
      $("first").disabled = $("prev").disabled = at === 0;
      $("next").disabled = $("last").disabled = at === last;
      tabs.forEach((tab, v) => tab.setAttribute("aria-selected", String(v === view)));
    }

    const go = (n) => { at = Math.max(0, Math.min(last, n)); draw(); };
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(at - 1));
    $("next").addEventListener("click", () => go(at + 1));
    $("last").addEventListener("click", () => go(last));
    slider.addEventListener("input", () => go(Number(slider.value)));
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last,
        PageUp: at - 10, PageDown: at + 10 };
      if (e.key in keys) { e.preventDefault(); go(keys[e.key]); }
      else if (/^[0-9]$/.test(e.key) && Number(e.key) < views) { view = Number(e.key); draw(); }
    });
    // A card's text on hover, from the one copy of each text.
    document.addEventListener("mouseover", (e) => {
      const card = e.target.closest && e.target.closest(".c");
      if (card && !card.title) card.title = data.cards[card.dataset.c] || "";
    });
    window.anima = { go, steps: last, view: (v) => { view = v; draw(); } };
    // A link may open a step in a view: replay.html#step=120&view=2.
    const asked = new URLSearchParams(location.hash.slice(1));
    const askedView = Number(asked.get("view"));
    if (Number.isInteger(askedView) && askedView > 0 && askedView < views) view = askedView;
    at = Math.max(0, Math.min(last, Number(asked.get("step")) || 0));
    draw();
    document.body.dataset.ready = "true";
  }

  const packed = $("data").textContent;
  if (typeof DecompressionStream === "undefined") {
    $("old-browser").hidden = false;
    return;
  }
  unpack(packed).then(start);
})();
