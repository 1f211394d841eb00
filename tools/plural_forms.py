"""The plural forms of the messages that show a count, for tools/catalog_to_po.py `--forms`.

`{key: (count, {lang: forms})}`: `count` is the placeholder holding the number; per language
either one string, the singular (CLDR's "one"; French "one" is 0 and 1), the catalog's text being
"other" – or a tuple (one, other) when "other" differs from the old catalog text too (the
"card(s)" messages). CLDR's French "many" (whole millions) takes "other". A language left out
keeps its text for every form (German "Gold", English "gold").

CORE made companion/i18n/locale/; LUTECE, LUTETIA and QUOVADIS are for the game catalogs, to be
converted when they live in their game folders (then this file can go: the .po files hold it all).
"""

CORE = {
    "tbl.err.too_many_guesses": ("seconds", {
        "en": "Too many wrong codes. Please wait {seconds} second and try again.",
        "de": "Zu viele falsche Codes. Bitte warte {seconds} Sekunde.",
        "fr": "Trop de codes erronés. Attendez {seconds} seconde."}),
    "tbl.err.delete_in_play": ("days", {
        "en": "This table is still in play. Only an ended table, or one untouched for {days} day, can be deleted.",
        "de": "An diesem Tisch wird noch gespielt. Löschen lässt sich nur ein beendeter Tisch oder einer, der {days} Tag unberührt war.",
        "fr": "Cette table est encore en jeu. Seule une table terminée, ou restée intacte pendant {days} jour, peut être supprimée."}),
    "tbl.err.name_long": ("max", {
        "en": "That name is too long ({max} character at most).",
        "fr": "Ce nom est trop long ({max} caractère au plus)."}),
    "print.guide.print_duplex": ("pages", {
        "en": "{pages} page on {paper} card, double-sided: flip on {edge} edge, portrait. Scale 100 % / actual size, never “fit to page”. Card 160–250 g/m² (or paper glued on card). First print only pages 1–2 and do the duplex test (4) below.",
        "de": "{pages} Seite auf {paper}-Karton, beidseitig: an der {edge} Kante spiegeln, Hochformat. Maßstab 100 % / Originalgröße, nie „an Seite anpassen“. Karton 160–250 g/m² (oder Papier auf Karton kleben). Zuerst nur die Seiten 1–2 drucken und den Duplex-Test (4) unten machen.",
        "fr": "{pages} page sur carte {paper}, recto verso : retournement sur le bord {edge}, portrait. Échelle 100 % / taille réelle, jamais « ajuster à la page ». Carte 160–250 g/m² (ou papier collé sur carte). Imprimez d’abord seulement les pages 1–2 et faites le test recto verso (4) ci-dessous."}),
    "print.guide.print_single": ("pages", {
        "en": "{pages} page on {paper} card, single-sided. Scale 100 % / actual size, never “fit to page”. Card 160–250 g/m² (or paper glued on card).",
        "de": "{pages} Seite auf {paper}-Karton, einseitig. Maßstab 100 % / Originalgröße, nie „an Seite anpassen“. Karton 160–250 g/m² (oder Papier auf Karton kleben).",
        "fr": "{pages} page sur carte {paper}, recto seul. Échelle 100 % / taille réelle, jamais « ajuster à la page ». Carte 160–250 g/m² (ou papier collé sur carte)."}),
    "store.err.set_aside": ("saved", {
        "en": "The data file could not be opened as it was ({reason}). It was moved aside unchanged to {file}; the {saved} table that could be read from it was copied into a fresh {path}, where new tables are saved too. Tables that could not be read are listed below; keep the old file if you want to try a recovery tool (sqlite3's .recover).",
        "de": "Die Datendatei ließ sich so nicht öffnen ({reason}). Sie wurde unverändert nach {file} verschoben; der {saved} daraus lesbare Tisch wurde in eine frische {path} kopiert, in der auch neue Tische gespeichert werden. Nicht lesbare Tische stehen unten; bewahre die alte Datei auf, falls du ein Reparaturwerkzeug versuchen willst (.recover von sqlite3).",
        "fr": "Le fichier de données n’a pas pu être ouvert tel quel ({reason}). Il a été mis de côté sans modification sous {file} ; {saved} table lisible a été copiée dans un nouveau {path}, où les nouvelles tables sont aussi enregistrées. Les tables illisibles sont listées ci-dessous ; conservez l’ancien fichier pour essayer un outil de récupération (.recover de sqlite3)."}),
    "ui.locked_count": ("n", {
        "en": "{n} of {total} has locked",
        "de": "{n} von {total} hat festgelegt",
        "fr": "{n} sur {total} a verrouillé"}),
}

CORE.update({  # the table display (issue 18.1, companion/ui/views/display.py and the games' display.py)
    "display.locked_count": ("count", {"en": "{count} of {of} has locked", "de": "{count} von {of} hat festgelegt",
                                       "fr": "{count} sur {of} a verrouillé"}),
    "display.lt.move": ("steps", {"en": "Proposal: {frm} » {to} ({steps} space forward)",
                                  "de": "Vorschlag: {frm} » {to} ({steps} Feld vor)",
                                  "fr": "Proposition : {frm} » {to} ({steps} case en avant)"}),
    "display.qv.senators": ("count", {"en": "{count} senator", "de": "{count} Senator", "fr": "{count} sénateur"}),
    "display.lc.gold": ("count", {"en": "{name} {count} gold", "de": "{name} {count} Gold", "fr": "{name} {count} pièce"}),
})

CORE.update({  # a phone's reveal moment (issue 30.3, companion/ui/views/moment.py and the games' display.py)
    "moment.sv.yours": ("count", {"en": "Your {choice} – {count} of {of} chose it",
                                  "de": "Du: {choice} – {count} von {of} wählte das",
                                  "fr": "Votre choix : {choice} – {count} sur {of} l’a choisi"}),
    "moment.lc.take": ("count", {"en": "You take {slot} for {count} gold", "de": "Du nimmst {slot} für {count} Gold",
                                 "fr": "Vous prenez {slot} pour {count} pièce"}),
    "moment.qv.yours": ("count", {"en": "Your {count} senator voted {vote}: {outcome}",
                                  "de": "Dein {count} Senator stimmte {vote}: {outcome}",
                                  "fr": "Votre {count} sénateur a voté {vote} : {outcome}"}),
})

CORE.update({  # an early reveal's choices not locked (issue 30.2, companion/ui/views/host.py)
    "ui.host.reveal_drop": ("n", {"en": "{n} choice is not locked and will not count: {names}.",
                                  "de": "{n} Wahl ist nicht festgelegt und zählt nicht: {names}.",
                                  "fr": "{n} choix n’est pas verrouillé et ne comptera pas : {names}."}),
    "ui.host.reveal_count": ("n", {
        "en": "{n} choice is not locked; it counts, marked “not locked”: {names}.",
        "de": "{n} Wahl ist nicht festgelegt; sie zählt, markiert „nicht festgelegt“: {names}.",
        "fr": "{n} choix n’est pas verrouillé ; il compte, marqué « pas verrouillé » : {names}."}),
})

LUTECE = {
    "lutece.ui.coins_on": ("coins", {"fr": "{coins} pièce dessus"}),
    "lutece.ui.bank": ("coins", {"fr": "Banque : {coins} pièce"}),
    "lutece.ui.locked_count": ("n", {
        "en": "{n} of {total} has locked",
        "de": "{n} von {total} hat festgelegt",
        "fr": "{n} sur {total} a verrouillé"}),
    "lutece.ev.end_deck_characters": ("left", {
        "en": "Game over: the character deck has {left} card, {needed} are needed.",
        "de": "Spielende: Der Personenstapel hat {left} Karte, {needed} werden gebraucht.",
        "fr": "Fin de partie : la pioche Personnages a {left} carte, il en faut {needed}."}),
    "lutece.ev.end_deck_places": ("left", {
        "en": "Game over: the place deck has {left} card, {needed} are needed.",
        "de": "Spielende: Der Ortsstapel hat {left} Karte, {needed} werden gebraucht.",
        "fr": "Fin de partie : la pioche Lieux a {left} carte, il en faut {needed}."}),
    "lutece.ev.revenus_short": ("amount", {
        "fr": "{name} joue Revenus, mais la banque n’a plus que {amount} pièce sur {full}."}),
    "lutece.ev.take_sole": ("coins", {
        "fr": "{slot} : {name} prend la carte seul – prend {coins} pièce posée dessus, paie le coût de {cost} ; pot-de-vin de {bribe} à la banque."}),
    "lutece.ev.take": ("coins", {
        "fr": "{slot} : {name} gagne avec le plus gros pot-de-vin – {bribe} à la banque, paie le coût de {cost}, prend {coins} pièce de la carte."}),
    "lutece.err.bribe_purse": ("gold", {
        "fr": "Vous n’avez que {gold} pièce d’or ; un pot-de-vin de {amount} de plus est impossible."}),
    "lutece.ev.revenus": ("amount", {"fr": "{name} joue Revenus : +{amount} pièce d’or."}),
}

LUTETIA = {
    "lutetia.ui.chosen_count": ("n", {
        "en": "{n} of {total} has chosen a card.",
        "de": "{n} von {total} hat eine Karte gewählt.",
        "fr": "{n} sur {total} a choisi une carte."}),
    "lutetia.ui.enter_hint": ("n", {
        "en": ("Tap 2 plans in every area and your {n} modification card.",
               "Tap 2 plans in every area and your {n} modification cards."),
        "de": ("Tippe 2 Pläne in jedem Bereich und deine {n} Modifikationskarte an.",
               "Tippe 2 Pläne in jedem Bereich und deine {n} Modifikationskarten an."),
        "fr": ("Touchez 2 plans par zone et {n} carte modification.",
               "Touchez 2 plans par zone et vos {n} cartes modification.")}),
    "lutetia.ui.owed": ("n", {
        "en": ("{n} drawn card still to report", "{n} drawn cards still to report"),
        "de": ("{n} gezogene Karte noch zu melden", "{n} gezogene Karten noch zu melden"),
        "fr": ("{n} carte piochée à signaler", "{n} cartes piochées à signaler")}),
    "lutetia.ui.pile": ("discard", {
        "fr": "Cartes modification : {pile} dans la pioche, {discard} défaussée"}),
    "lutetia.err.enter_count": ("n", {
        "en": "Enter exactly {n} plan.",
        "de": "Gib genau {n} Plan ein.",
        "fr": "Saisissez exactement {n} plan."}),
    "lutetia.err.enter_mods": ("n", {
        "en": "Enter exactly {n} modification card.",
        "de": "Gib genau {n} Modifikationskarte ein.",
        "fr": "Saisissez exactement {n} carte modification."}),
}

QUOVADIS = {
    "quovadis.ui.seats_n": ("n", {"en": "{n} seat", "de": "{n} Platz", "fr": "{n} siège"}),
    "quovadis.ui.answered": ("n", {
        "en": "{n} of {total} has answered",
        "de": "{n} von {total} hat geantwortet",
        "fr": "{n} sur {total} a répondu"}),
    "quovadis.log.own_majority": ("own", {
        "en": "{player}’s own {own} senator makes the majority ({needed}) in {a}.",
        "de": "Der eigene {own} Senator von {player} stellt in {a} die Mehrheit ({needed}).",
        "fr": "Le {own} sénateur de {player} fait à lui seul la majorité ({needed}) en {a}."}),
    "quovadis.log.vote_open": ("needed", {
        "en": "{player} asks committee {a} to move a senator to {b}: {needed} yes vote needed, {own} of their own.",
        "de": "{player} beantragt im Gremium {a} den Aufstieg nach {b}: {needed} Ja-Stimme nötig, {own} eigene.",
        "fr": "{player} demande à la commission {a} de monter en {b} : {needed} oui nécessaire, dont {own} à lui."}),
    "quovadis.ui.vote_need": ("needed", {
        "en": "{needed} yes vote needed · {player} brings {own}",
        "de": "{needed} Ja-Stimme nötig · {player} bringt {own} mit",
        "fr": "{needed} oui nécessaire · {player} en apporte {own}"}),
    "quovadis.log.vote_passed": ("yes", {
        "en": "Approved with {yes} of {needed} vote needed.",
        "de": "Genehmigt mit {yes} Stimme ({needed} nötig).",
        "fr": "Approuvé avec {yes} voix ({needed} nécessaire)."}),  # approved: needed <= yes <= 1
    "quovadis.log.vote_failed": ("yes", {
        "en": "Rejected: only {yes} yes vote, {needed} needed. {player}’s senator stays in {a}.",
        "de": "Abgelehnt: nur {yes} Ja-Stimme, {needed} nötig. Der Senator von {player} bleibt in {a}."}),
}

GAMES = {"lutece": LUTECE, "lutetia": LUTETIA, "quovadis": QUOVADIS,
         "sealed_vote": {"sv.n_not_locked": ("n", {"en": "{n} not locked", "de": "{n} nicht festgelegt",
                                                   "fr": "{n} pas verrouillé"})}}  # --forms tools.plural_forms:GAMES.<id>

# companion/i18n/locale/<lang>/LC_MESSAGES/history.po (companion/history.py's counts)
CORE.update({  # pass-and-play (issue 29): companion/i18n/locale/*/LC_MESSAGES/shared.po
    "tbl.err.pin_wait": ("seconds", {
        "en": "Too many wrong PINs: nothing opened. Wait {seconds} second.",
        "de": "Zu viele falsche PINs: Nichts wurde geöffnet. Warte {seconds} Sekunde.",
        "fr": "Trop de codes PIN erronés : rien n’a été ouvert. Attendez {seconds} seconde."}),
})

HISTORY = {
    "hist.imported": ("n", {
        "en": '{n} game imported ({dup} already there).',
        "de": '{n} Partie importiert ({dup} schon vorhanden).',
        "fr": '{n} partie importée (déjà là : {dup}).',
    }),
    "hist.exported": ("n", {
        "en": '{n} game exported to {path}.',
        "de": '{n} Partie nach {path} exportiert.',
        "fr": '{n} partie exportée vers {path}.',
    }),
    "hist.games": ("n", {
        "en": '{n} game',
        "de": '{n} Partie',
        "fr": '{n} partie',
    }),
    "hist.wins": ("n", {
        "en": '{n} win',
        "de": '{n} Sieg',
        "fr": '{n} victoire',
    }),
    "hist.ui.games_title": ("n", {
        "en": '{n} game played',
        "de": '{n} Partie gespielt',
        "fr": '{n} partie jouée',
    }),
    "hist.ui.more": ("n", {
        "en": 'Show {n} more',
        "de": '{n} weitere zeigen',
        "fr": 'Afficher {n} de plus',
    }),
    "hist.ui.wins_of": ("n", {
        "en": '{n} win · {played} played',
        "de": '{n} Sieg · {played} gespielt',
        "fr": '{n} victoire · {played} jouées',
    }),
    "hist.ui.rename_what": ("n", {
        "en": '{name} is shown with the new name in all of their games ({n} game), past and future. You can undo it on this page.',
        "de": '{name} erscheint in allen Partien ({n} Partie), alten und neuen, mit dem neuen Namen. Das lässt sich auf dieser Seite rückgängig machen.',
        "fr": '{name} apparaît sous le nouveau nom dans toutes ses parties ({n} partie), passées et futures. Vous pouvez l’annuler sur cette page.',
    }),
    "hist.ui.merge_what": ("n", {
        "en": 'Every game of {name} ({n} game) counts for {into} from now on, shown as {into}. You can undo it on this page.',
        "de": 'Jede Partie von {name} ({n} Partie) zählt ab jetzt für {into} und erscheint unter {into}. Das lässt sich auf dieser Seite rückgängig machen.',
        "fr": 'Chaque partie de {name} ({n} partie) compte désormais pour {into}, sous le nom {into}. Vous pouvez l’annuler sur cette page.',
    }),
}
