// Keyboard navigation for replay pages, like lichess: ← → Home End, j k, and ? for help.
// The pages work without it: every key has a link.
(function () {
  function go(key) {
    var a = document.querySelector('[data-key="' + key + '"]');
    if (a && a.href) { window.location.href = a.href; }
  }
  var keys = { ArrowLeft: 'prev', k: 'prev', ArrowRight: 'next', j: 'next', Home: 'first', End: 'last' };
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) { return; }
    var help = document.getElementById('help');
    if (e.key === '?' && help && help.showModal) { help.open ? help.close() : help.showModal(); e.preventDefault(); return; }
    if (keys[e.key]) { go(keys[e.key]); e.preventDefault(); }
  });
  // "link to this turn" copies its address; without a clipboard it is an ordinary link.
  document.querySelectorAll('[data-copy]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      if (!navigator.clipboard) { return; }
      e.preventDefault();
      navigator.clipboard.writeText(a.href).then(function () {
        var was = a.textContent;
        a.textContent = 'copied';
        setTimeout(function () { a.textContent = was; }, 1500);
      });
    });
  });
  var button = document.querySelector('[data-help]');
  if (button) {
    button.addEventListener('click', function () {
      var help = document.getElementById('help');
      if (help && help.showModal) { help.showModal(); }
    });
  }
})();
// The inline board (templates/_board.html): a panel repeats what a feature's or an open
// square's tooltip says, for touch screens, and lists the tiles that fit a square as pictures.
(function () {
  var frame = document.querySelector('[data-board]');
  var info = document.getElementById('board-info');
  if (!frame || !info) { return; }
  var lit = null;
  function light(el) {
    if (lit) { lit.classList.remove('on'); }
    lit = el;
    if (el) { el.classList.add('on'); }
  }
  function title(el) {
    var t = el.querySelector('title');
    return t ? t.textContent : '';
  }
  function showFeature(f) {
    light(f);
    info.textContent = title(f);
  }
  function showSpot(spot) {
    light(spot);
    info.textContent = '';
    var fits = JSON.parse(spot.getAttribute('data-fits') || '[]');
    var head = document.createElement('strong');
    head.textContent = fits.length ? 'Tiles left that fit ' + spot.getAttribute('data-spot') + ':' : title(spot);
    info.appendChild(head);
    info.appendChild(document.createElement('br'));
    fits.forEach(function (fit) {
      var span = document.createElement('span');
      span.className = 'fit';
      var img = document.createElement('img');
      img.src = '/g/' + frame.getAttribute('data-game') + '/tiles/' + encodeURIComponent(fit[0]) + '.svg';
      img.alt = fit[0];
      span.appendChild(img);
      span.appendChild(document.createTextNode(fit[0] + ' ×' + fit[1]));
      info.appendChild(span);
    });
  }
  frame.addEventListener('mouseover', function (e) {
    var f = e.target.closest('.f');
    if (f) { showFeature(f); }
  });
  frame.addEventListener('click', function (e) {
    var spot = e.target.closest('.spot');
    var f = e.target.closest('.f');
    if (spot) { showSpot(spot); } else if (f) { showFeature(f); }
  });
})();
// The Card Game's hands switch (templates/_card_turn.html), remembered in this browser: a turn
// page opened without `?hands=` follows the last choice. Without the script the choice rides
// on the links, which carry `?hands=all` while every hand is shown.
(function () {
  var sw = document.querySelector('[data-hands]');
  if (!sw) { return; }
  var turnsOn = /[?&]hands=all\b/.test(sw.getAttribute('href')) ? 'all' : 'mover';
  sw.addEventListener('click', function () {
    try { localStorage.setItem('hands', turnsOn); } catch (e) { /* no storage: the link still works */ }
  });
  var chosen = null;
  try { chosen = localStorage.getItem('hands'); } catch (e) { return; }
  if (chosen === 'all' && turnsOn === 'all' && !/[?&]hands=/.test(window.location.search)) {
    window.location.replace(sw.href);
  }
})();

// The home page's scores (templates/index.html), hidden so that the list spoils no game: each
// behind its own fold, which works without the script, and all of them behind one switch this
// browser remembers.
(function () {
  var sw = document.querySelector('[data-results]');
  if (!sw) { return; }
  var list = sw.closest('section');
  function show(on) {
    list.classList.toggle('results-shown', on);
    list.querySelectorAll('details.result').forEach(function (d) { d.open = on; });
  }
  try { sw.checked = localStorage.getItem('results') === 'shown'; } catch (e) { /* no storage: hidden */ }
  document.querySelector('[data-results-switch]').hidden = false;
  show(sw.checked);
  sw.addEventListener('change', function () {
    try { localStorage.setItem('results', sw.checked ? 'shown' : 'hidden'); } catch (e) { /* this page only */ }
    show(sw.checked);
  });
})();

// Puzzles (templates/puzzle.html): a click on a marked square puts the drawn tile there, a click
// on the square it stands on turns it, and the meeple steps follow, without loading a page.
// Without the script the same links load the page that shows it.
(function () {
  var frame = document.querySelector('[data-puzzle]');
  var form = document.getElementById('answer');
  if (!frame || !form) { return; }
  var tile = frame.querySelector('.pick-tile');
  var home = tile.getAttribute('data-home').split(',').map(Number);
  var chosen = frame.querySelector('.pick.chosen');
  function rotations(a) { return JSON.parse(a.getAttribute('data-moves')); }
  // On the explore board (templates/explore.html) each meeple step is the whole line with the
  // move played: the line before it (data-base), then the square, the rotation and the meeple.
  var base = form.getAttribute('data-base');
  function value(token) {
    if (base === null) { return token; }
    var s = form.querySelector('[data-square]').textContent + ',' + form.querySelector('[data-rotation]').textContent;
    return base + s + (token ? ',' + token : '');
  }
  function steps(box, list) {
    box.querySelectorAll('label').forEach(function (l) { l.remove(); });
    list.forEach(function (step, i) {
      var label = document.createElement('label');
      var input = document.createElement('input');
      input.type = 'radio';
      input.name = base === null ? 'meeple' : 'line';
      input.value = value(step[0]);
      // The steps come in board order, no figure first (web::board_view::in_board_order).
      input.checked = i === 0;
      label.appendChild(input);
      label.appendChild(document.createTextNode(' ' + step[1]));
      box.appendChild(label);
    });
  }
  function put(a, rotation) {
    var r = a.querySelector('rect');
    var x = +r.getAttribute('x'), y = +r.getAttribute('y'), s = +r.getAttribute('width');
    tile.setAttribute('transform', 'translate(' + (x - home[0]) + ' ' + (y - home[1]) + ') rotate(' +
      rotation + ' ' + (home[0] + s / 2) + ' ' + (home[1] + s / 2) + ')');
    tile.removeAttribute('display');
    // The meeple drawn belonged to the answer shown before.
    frame.querySelectorAll('.pick-figure').forEach(function (f) { f.remove(); });
    if (chosen) { chosen.classList.remove('chosen'); }
    chosen = a;
    a.classList.add('chosen');
    form.hidden = false;
    document.querySelectorAll('[data-hint], [data-verdict]').forEach(function (el) { el.hidden = true; });
    var square = a.getAttribute('data-spot');
    if (form.elements.square) { form.elements.square.value = square; }
    if (form.elements.rotation) { form.elements.rotation.value = rotation; }
    form.querySelector('[data-square]').textContent = square;
    form.querySelector('[data-rotation]').textContent = rotation;
    var turns = rotations(a);
    var list = turns.filter(function (t) { return t[0] === rotation; })[0][1];
    steps(form.querySelector('.meeples'), list);
    spots(a, rotation, list);
  }
  // A ring on each segment a meeple may go to, a link that makes the move (as the page draws
  // them on the tile it placed).
  var NS = 'http://www.w3.org/2000/svg';
  function spotHref(square, rotation, token) {
    if (base === null) {
      return form.action + '?square=' + square + '&rotation=' + rotation + '&meeple=' + encodeURIComponent(token);
    }
    return form.action + '?line=' + encodeURIComponent(value(token));
  }
  function spots(a, rotation, list) {
    frame.querySelectorAll('.meeple-spots').forEach(function (g) { g.remove(); });
    var r = a.querySelector('rect');
    var x = +r.getAttribute('x'), y = +r.getAttribute('y'), s = +r.getAttribute('width');
    var g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'meeple-spots');
    list.forEach(function (step) {
      if (!step[2]) { return; }
      var link = document.createElementNS(NS, 'a');
      link.setAttribute('href', spotHref(a.getAttribute('data-spot'), rotation, step[0]));
      link.setAttribute('class', 'meeple-spot');
      var title = document.createElementNS(NS, 'title');
      title.textContent = 'Play it with the ' + step[1];
      var c = document.createElementNS(NS, 'circle');
      c.setAttribute('cx', x + step[2][0] * s);
      c.setAttribute('cy', y + step[2][1] * s);
      c.setAttribute('r', s * 0.11);
      link.appendChild(title);
      link.appendChild(c);
      g.appendChild(link);
    });
    frame.querySelector('svg').appendChild(g);
  }
  // The square's next rotation that fits after the one shown (its first on another square).
  function next(a) {
    var turns = rotations(a).map(function (t) { return t[0]; });
    if (a !== chosen) { return turns[0]; }
    var now = +form.querySelector('[data-rotation]').textContent;
    return turns[(turns.indexOf(now) + 1) % turns.length];
  }
  frame.addEventListener('click', function (e) {
    var a = e.target.closest('a.pick');
    if (!a) { return; }
    e.preventDefault();
    put(a, next(a));
  });
  form.querySelector('[data-turn]').addEventListener('click', function (e) {
    if (!chosen) { return; }
    e.preventDefault();
    put(chosen, next(chosen));
  });
  // A board bigger than its frame (a phone keeps the squares finger-sized) opens on the tile's
  // square, or the first it fits.
  var focus = chosen || frame.querySelector('a.pick');
  if (focus) {
    var f = frame.getBoundingClientRect(), at = focus.getBoundingClientRect();
    frame.scrollLeft += at.left + at.width / 2 - (f.left + f.width / 2);
    frame.scrollTop += at.top + at.height / 2 - (f.top + f.height / 2);
  }
  // R turns the tile, as on Board Game Arena.
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || (e.key !== 'r' && e.key !== 'R') || !chosen) { return; }
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA')) { return; }
    e.preventDefault();
    put(chosen, next(chosen));
  });
})();
// The explore board's engine (templates/explore.html): when the page has no answer kept, the
// script asks for it in the background and shows it, with its moves as ghosts on the board
// unless the reader has started placing the tile. Without the script, the link asks.
(function () {
  var ask = document.querySelector('[data-think]');
  var panel = document.querySelector('[data-engine]');
  if (!ask || !panel || !window.fetch || !window.DOMParser) { return; }
  panel.setAttribute('aria-busy', 'true');
  ask.parentNode.textContent = 'The engine is thinking…';
  fetch(ask.href, { headers: { Accept: 'text/html' } }).then(function (r) {
    if (!r.ok) { throw new Error(r.status); }
    return r.text();
  }).then(function (html) {
    var page = new DOMParser().parseFromString(html, 'text/html');
    var answer = page.querySelector('[data-engine]');
    if (answer) { panel.innerHTML = answer.innerHTML; }
    var board = document.querySelector('[data-puzzle]');
    var drawn = page.querySelector('[data-puzzle]');
    if (board && drawn && !board.querySelector('.pick.chosen')) {
      var svg = board.querySelector('svg');
      drawn.querySelectorAll('svg > .ghost, svg > .ghost-figure, svg > a.badge').forEach(function (g) {
        svg.appendChild(document.importNode(g, true));
      });
    }
  }).catch(function () {
    panel.textContent = 'The engine could not answer now. Reload the page to ask again.';
  }).then(function () { panel.removeAttribute('aria-busy'); });
})();
// The board's zoom (templates/_board.html): + and − widen the board inside its frame, which
// then pans: touch screens drag it natively, a mouse drags it here. Fit shows it whole again.
// Without the script, "larger picture" opens a bigger image to zoom into.
(function () {
  var frame = document.querySelector('.board-frame');
  var buttons = document.querySelector('[data-zoom-buttons]');
  if (!frame || !buttons) { return; }
  buttons.hidden = false;
  var zoom = 1;
  function set(z) {
    // Keep the point at the frame's centre where it is.
    var fx = (frame.scrollLeft + frame.clientWidth / 2) / frame.scrollWidth;
    var fy = (frame.scrollTop + frame.clientHeight / 2) / frame.scrollHeight;
    // Zoom from the board's unzoomed width: the frame's, or on a phone a puzzle's own size.
    if (zoom === 1) { frame.style.setProperty('--fit', frame.querySelector('svg').getBoundingClientRect().width + 'px'); }
    zoom = Math.min(5, Math.max(1, z));
    frame.style.setProperty('--zoom', zoom);
    frame.classList.toggle('zoomed', zoom > 1);
    frame.scrollLeft = fx * frame.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = fy * frame.scrollHeight - frame.clientHeight / 2;
  }
  buttons.addEventListener('click', function (e) {
    var b = e.target.closest('[data-zoom]');
    if (!b) { return; }
    var how = b.getAttribute('data-zoom');
    set(how === 'in' ? zoom * 1.5 : how === 'out' ? zoom / 1.5 : 1);
  });
  var drag = null;
  frame.addEventListener('pointerdown', function (e) {
    if (e.pointerType !== 'mouse' || zoom === 1) { return; }
    drag = { x: e.clientX, y: e.clientY, left: frame.scrollLeft, top: frame.scrollTop, moved: false };
  });
  window.addEventListener('pointermove', function (e) {
    if (!drag) { return; }
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) { drag.moved = true; frame.classList.add('panning'); }
    frame.scrollLeft = drag.left - dx;
    frame.scrollTop = drag.top - dy;
  });
  window.addEventListener('pointerup', function () {
    frame.classList.remove('panning');
    setTimeout(function () { drag = null; }, 0);
  });
  // A drag is not a click on what it started on.
  frame.addEventListener('click', function (e) {
    if (drag && drag.moved) { e.preventDefault(); e.stopPropagation(); }
  }, true);
})();

// Key links (templates/key.html): the key rides in the link's fragment, which the browser never
// sends; it goes into the form that claims the game, which posts it.
(function () {
  var form = document.querySelector('[data-key-form]');
  if (!form || location.hash.length < 2) { return; }
  form.elements.key.value = decodeURIComponent(location.hash.slice(1));
  // Out of the address, so that the key stays out of the history too.
  history.replaceState(null, '', location.pathname);
})();

// A live game's pages (templates/_game_head.html): the game is asked for every 1.5 s while the
// page is shown. Once a move was recorded or taken back, the page that shows the latest
// position (the game's own address, or its last turn) loads the new one; an older turn's page
// says so and links it. Without the script the note asks the reader to reload.
(function () {
  var note = document.querySelector('[data-live]');
  if (!note || !window.fetch) { return; }
  var turns = note.getAttribute('data-live-turns');
  var latest = note.getAttribute('data-live-latest');
  var atLatest = location.pathname === latest || location.pathname === latest + '/t/' + turns;
  function changed(game) {
    if (atLatest) { location.replace(latest); return; }
    note.textContent = 'Turn ' + game.turns + ' was played. ';
    var a = document.createElement('a');
    a.href = latest;
    a.textContent = 'See the latest position';
    note.appendChild(a);
  }
  function ask() {
    if (document.hidden) { return; }
    fetch(note.getAttribute('data-live'), { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (game) {
        if (game && (String(game.turns) !== turns || !game.live)) { clearInterval(timer); changed(game); }
      })
      .catch(function () {});
  }
  var timer = setInterval(ask, 1500);
})();

// The start page (templates/new.html): the Card Game's deal is asked for only when the Card
// Game is chosen. Without the script it always shows, and other games ignore it.
(function () {
  var deal = document.querySelector('[data-card-start]');
  var game = deal && deal.form && deal.form.elements.game;
  if (!game) { return; }
  function show() { deal.hidden = game.value !== 'card-game'; }
  game.addEventListener('change', show);
  show();
})();

// Recording at the table (templates/explore.html, record_cards.html): a move is sent from the
// page, and if the connection is lost it waits in this browser's storage and is sent again
// when the connection is back (every few seconds, and on the browser's 'online'), from any page
// of the site. Each move carries its number, so the server records it once however often it
// comes. Without the script the form posts as any form does.
(function () {
  if (!window.fetch || !window.localStorage || !window.URLSearchParams) { return; }
  var PREFIX = 'carcassonne-replay:pending-move:';
  var form = document.querySelector('form[data-record]');
  // Read from the attribute: the Card Game's buttons are named "action", which form.action
  // would return instead.
  var target = form && new URL(form.getAttribute('action'), location.href).href;
  var note = null;
  function say(text) {
    if (!form) { return; }
    if (!note) {
      note = document.createElement('p');
      note.className = 'offline-note';
      note.setAttribute('role', 'status');
      note.setAttribute('data-pending', '');
      form.insertBefore(note, form.firstChild);
    }
    note.textContent = text;
  }
  function send(action, body) {
    return fetch(action, {
      method: 'POST', body: body, credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }
    }).then(function (r) {
      localStorage.removeItem(PREFIX + action);
      if (r.ok) {
        if (target === action) { location.assign(r.url); }
        return;
      }
      return r.json().then(function (p) { say('Not recorded: ' + (p.detail || p.title)); },
                           function () { say('Not recorded (' + r.status + ').'); });
    });
  }
  function retry() {
    Object.keys(localStorage).filter(function (k) { return k.indexOf(PREFIX) === 0; }).forEach(function (k) {
      var action = k.slice(PREFIX.length);
      send(action, localStorage.getItem(k)).catch(function () {});
    });
  }
  if (form) {
    var waiting = localStorage.getItem(PREFIX + target);
    if (waiting !== null) { say('A move waits on this device: it is sent when the connection is back.'); }
    form.addEventListener('submit', function (e) {
      if (!form.reportValidity()) { return; }
      e.preventDefault();
      // The button pressed says what the move is (the Card Game's); older browsers do not
      // take it as FormData's second argument, so it is added by hand.
      var data = new FormData(form);
      if (e.submitter && e.submitter.name) { data.append(e.submitter.name, e.submitter.value); }
      var body = new URLSearchParams(data).toString();
      form.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
      send(target, body).catch(function () {
        localStorage.setItem(PREFIX + target, body);
        say('No connection: this move waits on this device, and is sent as soon as the connection is back. Nothing is lost.');
      }).then(function () {
        form.querySelectorAll('button').forEach(function (b) { b.disabled = false; });
      });
    });
  }
  window.addEventListener('online', retry);
  setInterval(retry, 3000);
  retry();
})();
