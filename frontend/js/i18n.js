// Translations come from Django's JavaScriptCatalog (/jsi18n/, domain "djangojs"),
// loaded by the page before the modules. Calls are spelled gettext("…") so that
// `manage.py makemessages -d djangojs` finds them.

const catalog = globalThis;

export const gettext = (msgid) => (catalog.gettext ? catalog.gettext(msgid) : msgid);

export function ngettext(singular, plural, count) {
  if (catalog.ngettext) return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** Fills %(name)s placeholders, as Django's interpolate(fmt, obj, true) does. */
export const interpolate = (format, values) =>
  format.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));

/** The page's language (en, fr, ca or ro), which also picks the card letters. */
export const language = () => (document.documentElement.lang || "en").slice(0, 2);

/** A player's name; the server's names for one who chose none ("Player", "Player 2" in
 * a quick race) and for a deleted account's results ("deleted player") are translated. */
export function playerName(name) {
  if (name === "Player") return gettext("Player");
  const numbered = /^Player ([1-9][0-9]?)$/.exec(name); // a quick racer who chose none
  if (numbered) return interpolate(gettext("Player %(number)s"), { number: numbered[1] });
  return name === "deleted player" ? gettext("deleted player") : name;
}
