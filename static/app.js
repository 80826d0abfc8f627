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
