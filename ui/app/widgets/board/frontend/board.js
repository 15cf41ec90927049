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
//
// A variant's layout comes with the arguments: `regions` (81 region numbers: thick
// lines between regions instead of the 3×3 boxes), `diagonals` (both diagonals shaded)
// and `cages` (Killer cages, drawn as dashed outlines inset in their cells, each sum
// small in its cage's top-left corner, on an SVG layer over the cells).
//
// The board's `size` (4, 6, 8, 9, 12 or 16 cells a side) comes with the arguments too; a
// board other than 9×9 gets its boxes as `regions`. A cell's value travels as one
// character, "0" empty, 1-9, then A-G for 10-16, and is shown as a number (10-16); on a
// board past 9×9, a digit typed just after a 1 in the same cell makes 10-16.
(function () {
  "use strict";

  var SIZE = 0; // set by the first render (build)
  var CELLS = 0;
  var TWO_KEYS_MS = 1500; // on a board past 9×9, "1" then a digit this soon after: 10-16
  var UNIT = 100; // one cell on the cage layer's viewBox
  var INSET = 8; // how far a cage's dashed outline sits inside its cells
  var SUM_FONT = 26; // the height of a cage's sum on the layer
  var SVG_NS = "http://www.w3.org/2000/svg";
  var state = {
    started: false, disabled: false, args: null,
    digits: [], printed: [], notes: [], seq: 0, cell: -1, noteMode: false, touched: {},
    lastKey: { cell: -1, at: 0 },
  };
  var boardEl = document.getElementById("board");
  var padEl = document.getElementById("pad");
  var toolsEl = document.getElementById("tools");
  var legendEl = document.getElementById("legend");
  var cellEls = [];
  var cageLayer = null;
  var drawnCages = null;
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

  // A cell's value from its character ("0"-"9", "A"-"G") and back.
  function valueOf(ch) { return parseInt(ch, 36) || 0; }
  function charOf(value) { return value.toString(36).toUpperCase(); }

  // The grid and its number pad for a board of `size` cells a side (again when it changes).
  function build(size) {
    SIZE = size;
    CELLS = size * size;
    boardEl.textContent = "";
    padEl.textContent = "";
    toolsEl.textContent = "";
    cellEls = [];
    digitButtons = [];
    drawnCages = null;
    boardEl.style.gridTemplateColumns = "repeat(" + SIZE + ", 1fr)";
    boardEl.dataset.size = String(SIZE);
    padEl.style.gridTemplateColumns = "repeat(" + (SIZE > 9 ? SIZE / 2 : SIZE) + ", 1fr)";
    for (var r = 0; r < SIZE; r++) {
      var row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      for (var c = 0; c < SIZE; c++) {
        row.appendChild(makeCell(r * SIZE + c));
      }
      boardEl.appendChild(row);
    }
    cageLayer = document.createElementNS(SVG_NS, "svg");
    cageLayer.setAttribute("class", "cages");
    cageLayer.setAttribute("viewBox", "0 0 " + SIZE * UNIT + " " + SIZE * UNIT);
    cageLayer.setAttribute("preserveAspectRatio", "none");
    cageLayer.setAttribute("aria-hidden", "true");
    boardEl.appendChild(cageLayer);
    for (var d = 1; d <= SIZE; d++) {
      digitButtons.push(makeButton(padEl, String(d), String(d), enter.bind(null, d)));
    }
    tools.erase = makeButton(toolsEl, "Erase", "Erase", enter.bind(null, 0));
    tools.notes = makeButton(toolsEl, "Notes", "Notes", toggleNotes);
    tools.swap = makeButton(toolsEl, "Printed / pen", "Printed or pen", swapKind);
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
    el.edgeClass = (c === SIZE - 1 ? " last-col" : "") + (r === SIZE - 1 ? " last-row" : "");
    return el;
  }

  // ---------------------------------------------------------------- the variant's layout

  function regionOf(i) {
    var regions = state.args.regions;
    if (regions && regions.length === CELLS) { return regions[i]; }
    // the 3×3 boxes of a classic 9×9 board (other sizes always come with their regions)
    return Math.floor(Math.floor(i / SIZE) / 3) * 3 + Math.floor((i % SIZE) / 3);
  }

  function onDiagonal(i) {
    var r = Math.floor(i / SIZE), c = i % SIZE;
    return r === c || r + c === SIZE - 1;
  }

  // The cell's base classes: thick lines where the region (or box) changes, diagonal shading.
  function baseClass(i) {
    var r = Math.floor(i / SIZE), c = i % SIZE;
    var name = "cell" + cellEls[i].edgeClass;
    if (c < SIZE - 1 && regionOf(i) !== regionOf(i + 1)) { name += " box-right"; }
    if (r < SIZE - 1 && regionOf(i) !== regionOf(i + SIZE)) { name += " box-bottom"; }
    if (state.args.diagonals && onDiagonal(i)) { name += " diag"; }
    return name;
  }

  function cageOwners() {
    var owner = [];
    (state.args.cages || []).forEach(function (cage, k) {
      cage.cells.forEach(function (cell) { owner[cell] = k; });
    });
    return owner;
  }

  // How far from the cell's corner a dashed side ends: at the inset corner when the
  // neighbour along the side is outside the cage, past the cell's edge where the outline
  // bends inwards (the diagonal neighbour is in the cage too), on the edge on a straight run.
  function reach(along, corner) {
    if (!along) { return INSET; }
    return corner ? -INSET : 0;
  }

  function addLine(x1, y1, x2, y2) {
    var line = document.createElementNS(SVG_NS, "line");
    line.setAttribute("x1", x1); line.setAttribute("y1", y1);
    line.setAttribute("x2", x2); line.setAttribute("y2", y2);
    cageLayer.appendChild(line);
  }

  // The dashed sides of one cell of cage k; `skip` leaves room for the sum at the corner.
  function cageSides(owner, k, cell, skip) {
    var r = Math.floor(cell / SIZE), c = cell % SIZE, x = c * UNIT, y = r * UNIT;
    var n = function (dr, dc) {
      var rr = r + dr, cc = c + dc;
      return rr >= 0 && rr < SIZE && cc >= 0 && cc < SIZE && owner[rr * SIZE + cc] === k;
    };
    var down = skip ? SUM_FONT + INSET : 0;
    if (!n(-1, 0)) {
      addLine(x + Math.max(reach(n(0, -1), n(-1, -1)), skip), y + INSET,
        x + UNIT - reach(n(0, 1), n(-1, 1)), y + INSET);
    }
    if (!n(1, 0)) {
      addLine(x + reach(n(0, -1), n(1, -1)), y + UNIT - INSET,
        x + UNIT - reach(n(0, 1), n(1, 1)), y + UNIT - INSET);
    }
    if (!n(0, -1)) {
      addLine(x + INSET, y + Math.max(reach(n(-1, 0), n(-1, -1)), down),
        x + INSET, y + UNIT - reach(n(1, 0), n(1, -1)));
    }
    if (!n(0, 1)) {
      addLine(x + UNIT - INSET, y + reach(n(-1, 0), n(-1, 1)),
        x + UNIT - INSET, y + UNIT - reach(n(1, 0), n(1, 1)));
    }
  }

  // A cage's sum in its top-left cell; returns how much of the top side it takes.
  function addSum(total, cell) {
    var text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", (cell % SIZE) * UNIT + 4);
    text.setAttribute("y", Math.floor(cell / SIZE) * UNIT + SUM_FONT);
    text.setAttribute("font-size", SUM_FONT);
    text.textContent = String(total);
    cageLayer.appendChild(text);
    return 4 + String(total).length * SUM_FONT * 0.6 + 3;
  }

  // The cages, drawn again only when they change (a new puzzle).
  function drawCages() {
    var cages = state.args.cages || [];
    var key = JSON.stringify(cages);
    if (key === drawnCages) { return; }
    drawnCages = key;
    cageLayer.textContent = "";
    boardEl.classList.toggle("killer", cages.length > 0);
    var owner = cageOwners();
    cages.forEach(function (cage, k) {
      var first = Math.min.apply(null, cage.cells);
      var skip = addSum(cage.sum, first);
      cage.cells.forEach(function (cell) { cageSides(owner, k, cell, cell === first ? skip : 0); });
    });
  }

  // The top-left cell of each cage (where its sum is written): their notes start lower.
  function sumCells() {
    var first = {};
    (state.args.cages || []).forEach(function (cage) {
      first[Math.min.apply(null, cage.cells)] = true;
    });
    return first;
  }

  // ---------------------------------------------------------------- state from Python

  function adopt(args) {
    state.digits = args.digits.split("").map(valueOf);
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
    var size = args.size || 9;
    if (size !== SIZE) {
      build(size);
      state.started = false; // a board of another size: take Python's grid whole
      state.cell = -1;
    }
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
        digits: state.digits.map(charOf).join(""),
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
    if (!state.args) { return; }
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
    } else if (/^[0-9]$/.test(key) && secondKey(i, Number(key))) {
      enter(10 + Number(key));
    } else if (/^[1-9]$/.test(key) && Number(key) <= SIZE) {
      enter(Number(key));
      state.lastKey = { cell: i, at: Date.now() };
    } else if (key === "Backspace" || key === "Delete" || key === "0") {
      enter(0);
    } else if ((key === "n" || key === "N") && state.args && state.args.can_note) {
      toggleNotes();
    } else {
      return;
    }
    event.preventDefault();
  }

  // Whether `digit`, typed just after a 1 in the same cell, makes 10-16 on a board past 9×9.
  function secondKey(i, digit) {
    var last = state.lastKey;
    var soon = last.cell === i && Date.now() - last.at < TWO_KEYS_MS;
    state.lastKey = { cell: -1, at: 0 };
    return SIZE > 9 && soon && state.digits[i] === 1 && 10 + digit <= SIZE;
  }

  // ---------------------------------------------------------------- drawing

  function lookOf(i) {
    if (state.touched[i]) { return "edited"; }
    return state.args.looks[i] || (state.digits[i] ? "entry" : "");
  }

  function related(i, j) {
    var ri = Math.floor(i / SIZE), ci = i % SIZE, rj = Math.floor(j / SIZE), cj = j % SIZE;
    var diagonal = state.args.diagonals && ((ri === ci && rj === cj) ||
      (ri + ci === SIZE - 1 && rj + cj === SIZE - 1));
    return ri === rj || ci === cj || regionOf(i) === regionOf(j) || Boolean(diagonal);
  }

  function label(i, look) {
    var words = state.args.words;
    var text = "row " + (Math.floor(i / SIZE) + 1) + ", column " + (i % SIZE + 1) + ": ";
    text += state.digits[i] ? String(state.digits[i]) : "empty";
    if (look && words[look]) { text += ", " + words[look]; }
    var cage = cageOwners()[i];
    if (cage !== undefined) { text += ", in a cage of " + state.args.cages[cage].sum; }
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
    for (var d = 1; d <= Math.min(SIZE, 9); d++) {
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

  function drawCell(i, sums) {
    var el = cellEls[i];
    var look = lookOf(i);
    var sel = state.cell;
    var classes = [baseClass(i)];
    if (sums[i]) { classes.push("has-sum"); }
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
    var sums = sumCells();
    for (var i = 0; i < CELLS; i++) { drawCell(i, sums); }
    drawCages();
    drawLegend();
    drawTools();
    sendHeight();
  }

  // ---------------------------------------------------------------- start

  document.addEventListener("keydown", onKey);
  window.addEventListener("message", function (event) {
    if (event.data && event.data.type === "streamlit:render") { onRender(event.data); }
  });
  if (window.ResizeObserver) { new ResizeObserver(sendHeight).observe(document.getElementById("root")); }
  send("streamlit:componentReady", { apiVersion: 1 });
})();
