// Search as `kg`'s name look-up does (kg.query.library.find_entity): the typed text is
// folded like kg.ingest.names.match_key (case, accents, hyphens and punctuation ignored),
// then compared with each entry's keys (every name and spelling it goes by, English or
// Chinese) tier by tier: the same name, the same without spaces, an acronym, every word in
// any order (Chinese: any part); last, words may be beginnings of words (while typing).
// finder(entries) -> function (typed) -> the entries of the first tier with a match, in entry order.
function finder(entries) {
  function matchKey(text) {
    var folded = text.normalize("NFKD").toLowerCase().replace(/\p{M}/gu, "");
    folded = folded.replace(/[\-\u2010-\u2015\u2212'\u2019\u00b7\u30fb.]/g, "");
    return folded.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  }
  function hasCjk(text) { return /[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]/.test(text); }
  function everyWord(typed, key, prefix) {
    if (hasCjk(typed)) return key.replace(/ /g, "").indexOf(typed.replace(/ /g, "")) >= 0;
    var have = key.split(" ");
    return typed.split(" ").every(function (w) {
      return have.some(function (h) { return prefix ? h.indexOf(w) === 0 : h === w; });
    });
  }
  var tiers = [
    function (e, typed, raw) { return e.id === raw; },
    function (e, typed) { return e.keys.indexOf(typed) >= 0; },
    function (e, typed) { var t = typed.replace(/ /g, ""); return e.keys.some(function (k) { return k.replace(/ /g, "") === t; }); },
    function (e, typed) { return e.acronyms.indexOf(typed) >= 0; },
    function (e, typed) { return e.keys.some(function (k) { return everyWord(typed, k, false); }); },
    function (e, typed) { return e.keys.some(function (k) { return everyWord(typed, k, true); }); },
  ];
  return function (raw) {
    var typed = matchKey(raw);
    if (!typed) return [];
    for (var t = 0; t < tiers.length; t++) {
      var hits = entries.filter(function (e) { return tiers[t](e, typed, raw.trim()); });
      if (hits.length) return hits;
    }
    return [];
  };
}
