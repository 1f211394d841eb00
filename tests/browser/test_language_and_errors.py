"""A phone speaks its browser's language, can switch, and bad input gets a clear message."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from tests.browser.helpers import create_table, enable_semantics, open_screen, see, tap


async def test_german_phone_switches_to_french_and_wrong_code_message(browser, server):
    table = await create_table(browser, server, qr=False)
    code = table.code

    ctx, phone = await open_screen(browser, f"{server.base}/t/{code}", locale="de-DE")
    await see(phone, "Willkommen am Tisch")
    await tap(phone, "FR", exact=True)
    await see(phone, "Bienvenue à la table")
    # Opened again on this phone: the saved language wins over the device's, from the page's
    # own loading screen (Flet's logo before) to the app's first screen (companion/ui/boot.py).
    await asyncio.sleep(0.5)  # (the choice reaches the browser's storage)
    again = await ctx.new_page()
    # every value the page's <html lang> takes (Flutter sets its own once it starts: a look after the
    # loading line could already see that – a race seen once in CI)
    await again.add_init_script("""window.__langs = [];
new MutationObserver(() => window.__langs.push(document.documentElement.lang))
  .observe(document, {subtree: true, attributes: true, attributeFilter: ["lang"]});""")
    await again.goto(f"{server.base}/t/{code}", wait_until="commit")
    await again.wait_for_function(
        "(document.getElementById('tc-status') || {}).textContent === " + repr(f"Ouverture de la table {code}…"),
        timeout=15_000)
    assert (await again.evaluate("window.__langs"))[:1] == ["fr"]  # the loading screen's, set first
    await enable_semantics(again)
    await see(again, "Bienvenue à la table")
    # the loading screen stays over Flutter's blank first frames and Flet's "Working..." until the
    # app's first screen is built, then goes
    await again.wait_for_function("!document.getElementById('tc-loading') && !document.getElementById('loading')",
                                  timeout=5_000)

    ctx2, lost = await open_screen(browser, f"{server.base}/t/QQQQ", locale="de-DE")
    await see(lost, "Es gibt keinen Tisch mit dem Code QQQQ")

    # The join card of the table can be downloaded from the host screen's link – by the host's
    # browser (its host cookie) only; anyone else gets what an unknown code gets.
    got = await table.page.request.get(f"{server.base}/join-card/{code}.pdf", timeout=60_000)
    assert got.headers["content-type"] == "application/pdf" and (await got.body())[:5] == b"%PDF-"
    for path in (f"/join-card/{code}.pdf", "/join-card/QQQQ.pdf"):
        try:
            urllib.request.urlopen(f"{server.base}{path}", timeout=60)
            raise AssertionError(f"{path} answered a browser without the host key")
        except urllib.error.HTTPError as e:
            assert e.code == 404
