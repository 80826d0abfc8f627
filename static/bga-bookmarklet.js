// carcassonne-replay's Board Game Arena bookmarklet: the readable source.
//
// It runs in the Board Game Arena page the player is looking at, so it asks Board Game Arena
// for the table's log exactly as that page would (same site, the player's own login), then
// either posts the log to this service or saves it as a file.
//
// The /bga page serves it as a `javascript:` link (src/web/routes/bookmarklet.rs): lines that
// are only a comment and every line's indentation are dropped, the address in `base` below is
// replaced with the site's public address, and the rest is percent-encoded. Line breaks stay,
// so the code means the same once served. Keep comments on lines of their own (a comment after
// code would survive and could swallow the code after it) and no string across lines.
//
// The whole is `void`: a `javascript:` link whose value is not undefined replaces the page
// with that value, and an async function's value is a promise.
void (async () => {
  // Where the log goes; the /bga page puts the site's public address here.
  const base = "https://replay.example.org";
  const say = (words) => alert("carcassonne-replay: " + words);

  // The table: every page of a table (the table, the game, its review, its replay) has
  // ?table=ID in its address. The game page's own globals are the fallback. Page variables are
  // read by name behind `typeof`: a bookmarklet runs in the page's global scope, so this sees
  // what the page's scripts declared, and a name the page never set is undefined, not an error
  // (and no eval, which a page's policy may forbid).
  const fromAddress = new URLSearchParams(location.search).get("table");
  const pageTable = typeof g_table_id === "undefined" ? undefined : g_table_id;
  const pageUi = typeof gameui === "undefined" ? undefined : gameui;
  const candidates = [fromAddress, pageTable, pageUi && pageUi.table_id];
  const table = candidates.map((c) => String(c || "")).find((c) => /^[0-9]+$/.test(c));

  // A log in either of the two envelopes our importer reads (src/record/bga.rs `packets`):
  // the archive's {status: 1, data: {logs: [...]}} or the replay page's
  // {status: 1, data: {valid: 1, data: [...]}}. Anything else (status 0, a login page) is not.
  const isLog = (v) => {
    if (!v || String(v.status) !== "1" || !v.data) {
      return false;
    }
    if (v.data.logs !== undefined) {
      return Array.isArray(v.data.logs);
    }
    return !!v.data.valid && Array.isArray(v.data.data);
  };

  // BGA's own requests carry the page's request token; so do ours, when the page has one.
  const headers = { "X-Requested-With": "XMLHttpRequest" };
  const config = typeof bgaConfig === "undefined" ? undefined : bgaConfig;
  if (config && config.requestToken) {
    headers["X-Request-Token"] = String(config.requestToken);
  }
  // Same site as the page, with the player's cookies; never cached, since the first answer
  // may be "not archived yet" and the retry must ask again.
  const ask = async (path) => {
    const answer = await fetch(path, { credentials: "include", cache: "no-store", headers });
    return answer.text();
  };

  // The archive's answer, kept as the text BGA sent when it is a log; BGA's error otherwise.
  let text = null;
  let refusal = "";
  const fromArchive = async () => {
    const answer = await ask("/archive/archive/logs.html?table=" + table + "&translated=true");
    let v = null;
    try {
      v = JSON.parse(answer);
    } catch (e) {
      refusal = "Board Game Arena did not answer with a log (are you logged in?)";
      return null;
    }
    if (isLog(v)) {
      return answer;
    }
    refusal = "Board Game Arena said: " + ((v && v.error) || "no log for this table");
    return null;
  };

  if (table) {
    try {
      text = await fromArchive();
      // A table not archived yet has no log until it is asked for; ask, then try once more.
      if (text === null) {
        await ask("/gamereview/gamereview/requestTableArchive.html?table=" + table);
        text = await fromArchive();
      }
    } catch (e) {
      refusal = "could not reach Board Game Arena's archive (" + e + ")";
      text = null;
    }
  }
  // The replay page holds the log itself; it is the fallback when the archive cannot be had.
  if (text === null) {
    const inPage = typeof g_gamelogs === "undefined" ? undefined : g_gamelogs;
    if (isLog(inPage)) {
      text = JSON.stringify(inPage);
    }
  }
  if (text === null) {
    if (table) {
      say("no log for table " + table + ". " + refusal + ". Try again in a minute, or open the table's replay and click the bookmark there.");
    } else {
      say("open a Board Game Arena table first (its game, review or replay page: an address with ?table=), then click the bookmark.");
    }
    return;
  }

  const name = "bga-" + (table || "game") + ".json";
  // Saves the log as a file, through a link to it that is clicked at once.
  const save = () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = name;
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    link.remove();
    // The download has started from the address by then; a minute is plenty.
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  };

  const where = base.replace(/^https?:\/\//, "");
  if (!confirm("Upload table " + (table || "") + "'s log to " + where + " and open its replay?\n\nCancel saves it as " + name + " instead.")) {
    save();
    return;
  }

  // A form post, not fetch: the upload goes to another site, and a form needs no CORS from
  // it. The service's form route takes the field `text` and answers 303 to the game's page,
  // which opens in this tab (a new tab opened after the awaits above would meet the popup
  // blocker).
  const form = document.createElement("form");
  form.method = "post";
  form.enctype = "multipart/form-data";
  form.acceptCharset = "UTF-8";
  form.action = base + "/games";
  form.style.display = "none";
  const field = document.createElement("textarea");
  field.name = "text";
  field.value = text;
  form.appendChild(field);
  document.body.appendChild(form);
  // A page whose policy keeps forms on its own site (CSP form-action) stops the post; the
  // player gets the file instead of nothing.
  document.addEventListener("securitypolicyviolation", (e) => {
    if (e.violatedDirective === "form-action") {
      say("this page does not let the log leave for " + where + ", so it is saved as " + name + ": upload that file on " + where + ".");
      save();
    }
  });
  form.submit();
})();
