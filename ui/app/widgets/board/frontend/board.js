// The sudokucam board: a Streamlit component in plain JavaScript, no build step.
//
// Streamlit talks to this page (an iframe) by postMessage: the page says
// "streamlit:componentReady" once, Streamlit answers with "streamlit:render" messages
// carrying the Python arguments and the app's theme; the page sends its value back
// with "streamlit:setComponentValue" and its height with "streamlit:setFrameHeight".
//
// The board keeps its own copy of the digits, printed flags and notes. Each edit bumps
// `seq` and is sent whole. Python passes back `ack`, the last edit it has seen: while
// ack is behind the board's own seq the board keeps its copy (Python has not caught
// up), otherwise it takes Python's state (undo, corrections made elsewhere).
(function () {
  "use strict";

  var SIZE = 9;
  var CELLS = 81;
  var state = {
    started: false, disabled: false, args: null,
    digits: [], printed: [], notes: [], seq: 0, cell: -1, noteMode: false, touched: {},
  };
  var boardEl = document.getElementById("board");
  var padEl = document.getElementById("pad");
  var toolsEl = document.getElementById("tools");
  var legendEl = document.getElementById("legend");
  var cellEls = [];
  var digitButtons = [];
  var tools = {};

  function send(type, data) {
    var message = { isStreamlitMessage: true, type: type };
    Object.keys(data).forEach(function (k) { message[k] = data[k]; });
    window.parent.postMessage(message, "*");
  }

  // The height of what the board shows, not of the page: the page is at least as tall as
  // the frame, so measuring it would never let the frame shrink (a gap once the pad hides).
  function sendHeight() {
    var root = document.getElementById("root");
    var style = window.getComputedStyle(root);
    var height = root.getBoundingClientRect().height + parseFloat(style.marginTop) +
      parseFloat(style.marginBottom);
    send("streamlit:setFrameHeight", { height: Math.ceil(height) });
  }

  // ---------------------------------------------------------------- building the page

  function makeButton(parent, text, label, onPress) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.setAttribute("aria-label", label);
    button.addEventListener("click", function (event) { event.preventDefault(); onPress(); });
    parent.appendChild(button);
    return button;
  }

  function build() {
    for (var r = 0; r < SIZE; r++) {
      var row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      for (var c = 0; c < SIZE; c++) {
        row.appendChild(makeCell(r * SIZE + c));
      }
      boardEl.appendChild(row);
    }
    for (var d = 1; d <= 9; d++) {
      digitButtons.push(makeButton(padEl, String(d), String(d), enter.bind(null, d)));
    }
    tools.erase = makeButton(toolsEl, "Erase", "Erase", enter.bind(null, 0));
    tools.notes = makeButton(toolsEl, "Notes", "Notes", toggleNotes);
    tools.swap = makeButton(toolsEl, "Printed / pen", "Printed or pen", swapKind);
    document.addEventListener("keydown", onKey);
  }

  function makeCell(i) {
    var el = document.createElement("div");
    var r = Math.floor(i / SIZE);
    var c = i % SIZE;
    el.setAttribute("role", "gridcell");
    el.tabIndex = -1;
    el.dataset.cell = String(i);
    el.addEventListener("click", function () { select(i, true); });
    cellEls.push(el);
    el.baseClass = "cell" + (c % 3 === 2 ? " box-right" : "") + (r % 3 === 2 ? " box-bottom" : "") +
      (c === SIZE - 1 ? " last-col" : "") + (r === SIZE - 1 ? " last-row" : "");
    return el;
  }

  // ---------------------------------------------------------------- state from Python

  function adopt(args) {
    state.digits = args.digits.split("").map(Number);
    state.printed = args.printed.split("").map(function (ch) { return ch === "1"; });
    state.notes = args.notes.slice();
    state.seq = Math.max(state.seq, args.ack);
    state.touched = {};
  }

  function onRender(message) {
    var args = message.args;
    applyTheme(message.theme);
    state.args = args;
    state.disabled = Boolean(message.disabled);
    if (!state.started || args.ack >= state.seq) {
      adopt(args);
    }
    if (!state.started && args.focus >= 0) {
      state.cell = args.focus;
    }
    state.started = true;
    boardEl.setAttribute("aria-label", args.label);
    draw();
  }

  function applyTheme(theme) {
    if (!theme) { return; }
    var root = document.documentElement;
    root.dataset.scheme = theme.base === "dark" ? "dark" : "light";
    if (theme.primaryColor) { root.style.setProperty("--select", theme.primaryColor); }
    if (theme.font) { root.style.setProperty("--font", theme.font); }
  }

  // ---------------------------------------------------------------- editing

  function editable(i) {
    var args = state.args;
    if (!args || !args.editable || state.disabled || i < 0) { return false; }
    return !(args.lock_printed && state.printed[i]);
  }

  function toggleNote(i, d) {
    var notes = state.notes[i];
    var digit = String(d);
    notes = notes.indexOf(digit) >= 0 ? notes.replace(digit, "") : notes + digit;
    state.notes[i] = notes.split("").sort().join("");
    state.digits[i] = 0;
    state.printed[i] = false;
  }

  function enter(d) {
    var i = state.cell;
    if (!editable(i)) { return; }
    if (d === 0) {
      if (!state.digits[i] && !state.notes[i]) { return; }
      state.digits[i] = 0;
      state.notes[i] = "";
      state.printed[i] = false;
    } else if (state.noteMode && state.args.can_note) {
      toggleNote(i, d);
    } else {
      if (state.digits[i] === d) { return; }
      if (!state.digits[i]) { state.printed[i] = Boolean(state.args.typed_printed); }
      state.digits[i] = d;
      state.notes[i] = "";
    }
    commit(i);
  }

  function swapKind() {
    var i = state.cell;
    if (!editable(i) || !state.digits[i]) { return; }
    state.printed[i] = !state.printed[i];
    commit(i);
  }

  function toggleNotes() {
    state.noteMode = !state.noteMode;
    draw();
  }

  function commit(i) {
    state.seq += 1;
    state.touched[i] = true;
    draw();
    send("streamlit:setComponentValue", {
      dataType: "json",
      value: {
        seq: state.seq,
        cell: i,
        digits: state.digits.join(""),
        printed: state.printed.map(function (p) { return p ? "1" : "0"; }).join(""),
        notes: state.notes.slice(),
      },
    });
  }

  function select(i, focus) {
    state.cell = i;
    draw();
    if (focus) { cellEls[i].focus({ preventScroll: true }); }
  }

  var MOVES = { ArrowUp: -SIZE, ArrowDown: SIZE, ArrowLeft: -1, ArrowRight: 1 };

  function onKey(event) {
    var key = event.key;
    var i = state.cell < 0 ? 0 : state.cell;
    if (MOVES[key] !== undefined) {
      var r = Math.floor(i / SIZE);
      var c = i % SIZE;
      if (key === "ArrowUp") { r = (r + SIZE - 1) % SIZE; }
      if (key === "ArrowDown") { r = (r + 1) % SIZE; }
      if (key === "ArrowLeft") { c = (c + SIZE - 1) % SIZE; }
      if (key === "ArrowRight") { c = (c + 1) % SIZE; }
      select(r * SIZE + c, true);
    } else if (/^[1-9]$/.test(key)) {
      enter(Number(key));
    } else if (key === "Backspace" || key === "Delete" || key === "0") {
      enter(0);
    } else if ((key === "n" || key === "N") && state.args && state.args.can_note) {
      toggleNotes();
    } else {
      return;
    }
    event.preventDefault();
  }

  // ---------------------------------------------------------------- drawing

  function lookOf(i) {
    if (state.touched[i]) { return "edited"; }
    return state.args.looks[i] || (state.digits[i] ? "entry" : "");
  }

  function related(i, j) {
    var ri = Math.floor(i / SIZE), ci = i % SIZE, rj = Math.floor(j / SIZE), cj = j % SIZE;
    var box = Math.floor(ri / 3) === Math.floor(rj / 3) && Math.floor(ci / 3) === Math.floor(cj / 3);
    return ri === rj || ci === cj || box;
  }

  function label(i, look) {
    var words = state.args.words;
    var text = "row " + (Math.floor(i / SIZE) + 1) + ", column " + (i % SIZE + 1) + ": ";
    text += state.digits[i] ? String(state.digits[i]) : "empty";
    if (look && words[look]) { text += ", " + words[look]; }
    if (state.notes[i]) { text += ", notes " + state.notes[i].split("").join(" "); }
    var removed = state.args.removed[i];
    if (removed) { text += ", hint rules out " + removed.split("").join(" "); }
    return text;
  }

  function drawNotes(el, i) {
    var notes = state.notes[i];
    var removed = state.args.removed[i] || "";
    var box = document.createElement("div");
    box.className = "notes";
    box.setAttribute("aria-hidden", "true");
    for (var d = 1; d <= 9; d++) {
      var span = document.createElement("span");
      var digit = String(d);
      if (removed.indexOf(digit) >= 0) {
        span.className = "removed";
        span.textContent = digit;
      } else if (notes.indexOf(digit) >= 0) {
        span.textContent = digit;
      }
      box.appendChild(span);
    }
    el.appendChild(box);
  }

  function drawCell(i) {
    var el = cellEls[i];
    var look = lookOf(i);
    var sel = state.cell;
    var classes = [el.baseClass];
    if (sel >= 0 && sel !== i && related(sel, i)) { classes.push("peer"); }
    if (sel >= 0 && sel !== i && state.digits[sel] && state.digits[sel] === state.digits[i]) {
      classes.push("same");
    }
    if (state.digits[i] && state.printed[i]) { classes.push("printed"); }
    if (look) { classes.push(look); }
    if (!editable(i)) { classes.push("locked"); }
    if (i === sel) { classes.push("selected"); }
    el.className = classes.join(" ");
    el.textContent = "";
    if (state.digits[i]) {
      el.textContent = String(state.digits[i]);
    } else if (state.notes[i] || state.args.removed[i]) {
      drawNotes(el, i);
    }
    el.setAttribute("aria-label", label(i, look));
    el.setAttribute("aria-selected", i === sel ? "true" : "false");
    el.tabIndex = i === (sel < 0 ? 0 : sel) ? 0 : -1;
  }

  function drawLegend() {
    var words = state.args.words;
    legendEl.textContent = "";
    state.args.legend.forEach(function (look) {
      var item = document.createElement("span");
      var swatch = document.createElement("i");
      swatch.className = look;
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(words[look] || look));
      legendEl.appendChild(item);
    });
  }

  function drawTools() {
    var args = state.args;
    var canEdit = Boolean(args.editable) && !state.disabled;
    padEl.classList.toggle("hidden", !canEdit);
    toolsEl.classList.toggle("hidden", !canEdit);
    padEl.classList.toggle("notes-mode", state.noteMode && args.can_note);
    var target = editable(state.cell);
    digitButtons.forEach(function (b, k) {
      b.disabled = !target;
      b.setAttribute("aria-label", (state.noteMode && args.can_note ? "Note " : "") + (k + 1));
    });
    tools.erase.disabled = !target;
    tools.notes.classList.toggle("hidden", !args.can_note);
    tools.notes.setAttribute("aria-pressed", state.noteMode ? "true" : "false");
    tools.swap.classList.toggle("hidden", !args.can_swap);
    tools.swap.disabled = !target || !state.digits[state.cell];
  }

  function draw() {
    if (!state.args) { return; }
    for (var i = 0; i < CELLS; i++) { drawCell(i); }
    drawLegend();
    drawTools();
    sendHeight();
  }

  // ---------------------------------------------------------------- start

  build();
  window.addEventListener("message", function (event) {
    if (event.data && event.data.type === "streamlit:render") { onRender(event.data); }
  });
  if (window.ResizeObserver) { new ResizeObserver(sendHeight).observe(document.getElementById("root")); }
  send("streamlit:componentReady", { apiVersion: 1 });
})();
