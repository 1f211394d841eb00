"""The join screen before Flutter (issue 31.4): a seatless phone's seat buttons in the page itself.

A mid-range phone needs 3–5 s of main-thread CPU to start Flutter (wasm compile, Dart start, the
first frame: docs/BENCHMARKS.md) – nothing that moves bytes shortens it. So the page of
`/t/CODE` for a table in its lobby carries the join screen as plain HTML (`screen_html`): the
title, the name field and one big button per seat in its colour (taken seats disabled, with their
holder's name), usable at once while Flutter starts behind it. It carries only what the Flet join
screen shows anyone who opens the code: the seats' names, colours and whether they are free.

A tap goes through `POST /t/CODE/join` (`take_seat`), the same request as the Flet join screen's
(`Table.request("", {"op": "join", ...})`: the table's op table decides), behind the same guards
as a socket's join: the join-code guess limit per connection address (Hub.admit), and a limit of
its own on the tries per address (`JoinLimit`), a body of at most MAX_BODY bytes, JSON only, from
this server's own pages only (Origin). Every refusal is a status code and a message in the
player's language; nothing is changed.

The seat token then goes where the app reads it (the page's script: localStorage
`flutter.seat:CODE`, the address's `?s=`, the boot cookie if Flutter's socket is not open yet),
and the page's Flet session hears of it (`PageJoins`): each page has an id (companion/ui/boot.py
BOOT_JS), sent with the tap and in the boot cookie of its socket's handshake; a session already
attached to that id is moved to its seat at once, one that attaches later finds the seat waiting.
"""

from __future__ import annotations

import html
import json
import re
import time
import weakref
from collections import defaultdict, deque
from typing import Any, Protocol
from urllib.parse import unquote

from companion import i18n
from companion.games.base import RuleError
from companion.table.hub import Hub, normalise_code
from companion.table.ops import MAX_NAME
from companion.table.store import StoreError
from companion.table.table import Table
from companion.ui import boot

MAX_BODY = 2048  # bytes of a tap's request: {seat, name, page, lang} is < 300
TRIES = 12  # taps per connection address ...
TRIES_WINDOW = 30.0  # ... per this many seconds (a phone needs one or two)
PAGE_ID = re.compile(r"^[0-9a-f]{16,64}$")
WAIT_KEEP = 60.0  # s a seat taken by a page waits for that page's session
# The seat list again every POLL_MS while the HTML screen stays up after Flutter's has come (the
# player is typing on it): never before – not on the critical path. LOOKS per address per window.
POLL_MS = 4000
LOOKS = 30
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_COLOUR = "#8d5524"


class SeatedByPage(Protocol):
    def seated_by_page(self, code: str, token: str, lang: str | None) -> bool: ...


class PageJoins:
    """Which Flet session belongs to which page (by the page's id), and seats taken by a page
    whose session has not attached yet. One asyncio loop: attach and take never interleave."""

    def __init__(self) -> None:
        self._sessions: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
        self._waiting: dict[str, tuple[str, str, str | None, float]] = {}  # page -> code, token, lang, when

    def attach(self, page: Any, session: SeatedByPage) -> tuple[str, str, str | None] | None:
        """The session of page `page` (from its socket's boot cookie); a seat its page took before
        (code, token, lang), taken out, or None."""
        if not isinstance(page, str) or not PAGE_ID.match(page):
            return None
        self._sessions[page] = session
        got = self._waiting.pop(page, None)
        if got is None or time.monotonic() - got[3] > WAIT_KEEP:
            return None
        return got[0], got[1], got[2]

    def detach(self, page: Any, session: Any) -> None:
        if isinstance(page, str) and self._sessions.get(page) is session:
            del self._sessions[page]

    def taken(self, page: Any, code: str, token: str, lang: str | None) -> bool:
        """Page `page` took a seat: its session is told (True), or the seat waits for it (False)."""
        if not isinstance(page, str) or not PAGE_ID.match(page):
            return False
        session = self._sessions.get(page)
        if session is not None and session.seated_by_page(code, token, lang):
            return True
        now = time.monotonic()
        if len(self._waiting) > 1024:
            self._waiting = {k: v for k, v in self._waiting.items() if now - v[3] < WAIT_KEEP}
        self._waiting[page] = (code, token, lang, now)
        return False


class JoinLimit:
    """Taps per connection address: at most TRIES in TRIES_WINDOW seconds."""

    def __init__(self, tries: int = TRIES, window: float = TRIES_WINDOW) -> None:
        self.tries, self.window = tries, window
        self._seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        q = self._seen[client]
        while q and now - q[0] > self.window:
            q.popleft()
        if len(q) >= self.tries:
            return False
        q.append(now)
        if len(self._seen) > 4096:
            self._seen = defaultdict(deque, {k: v for k, v in self._seen.items() if v and now - v[-1] <= self.window})
        return True


def request_lang(accept_language: str) -> str:
    """The language the Flet session would pick from the device's language: the first tag of
    Accept-Language (navigator.language), as i18n.pick_lang reads it."""
    best, best_q = None, -1.0
    for part in accept_language.split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            k, _, val = p.strip().partition("=")
            if k == "q":
                try:
                    q = float(val)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > best_q:
            best, best_q = tag, q
    return i18n.pick_lang(best)


def seat_list(t: Table, lang: str) -> list[dict[str, Any]]:
    """The seats as the join screen shows them: label, colour, state (free / taken / shared)."""
    out = []
    for i, s in enumerate(t.seats):
        if s.get("shared"):
            state, key = "shared", "ui.phone.seat_shared"
        elif s.get("token"):
            state, key = "taken", "ui.phone.seat_taken_by"
        else:
            state, key = "free", "ui.phone.take_seat"
        colour = s.get("colour") if isinstance(s.get("colour"), str) and COLOUR.match(s["colour"]) else DEFAULT_COLOUR
        out.append({"i": i, "label": i18n.t(lang, key, name=s["name"]), "colour": colour, "state": state})
    return out


async def seat_list_for(hub: Hub, limit: JoinLimit, code: str, client: str, lang: str) -> tuple[int, dict[str, Any]]:
    """GET /t/CODE/seats: the join screen's seat list again – behind the same door as a tap (a wrong
    code counted, the lock-out; LOOKS per address per TRIES_WINDOW). 409 once the lobby is over."""
    lang = lang if lang in i18n.LANGS else "en"
    if not limit.allow(client):
        return _refusal(429, lang, "join.err.busy")
    try:
        t = hub.admit(code, client, None)
    except RuleError as e:
        return _refusal(429 if e.key == "tbl.err.too_many_guesses" else 404, lang, e.key, **e.params)
    if t.phase != "lobby":
        return _refusal(409, lang, "tbl.err.started")
    return 200, {"seats": seat_list(t, lang)}


def shows_screen(t: Table | None) -> bool:
    """A table whose page carries the join screen: in its lobby, with a seat a phone may take."""
    return t is not None and t.phase == "lobby" and bool(t.free_seats())


# ---------- the tap ----------
def _refusal(status: int, lang: str, key: str, t: Table | None = None, **params: Any) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"key": key, "message": i18n.t(lang, key, **params)}
    if t is not None and t.phase == "lobby":
        body["seats"] = seat_list(t, lang)  # (the page redraws its buttons: a seat taken meanwhile)
    return status, body


def same_origin(headers: dict[str, str]) -> bool:
    """No Origin (not a browser's cross-site request), or the Origin names this server's host."""
    origin = headers.get("origin")
    if not origin:
        return True
    host = headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


async def take_seat(hub: Hub, joins: PageJoins, limit: JoinLimit, code: str, client: str,
                    headers: dict[str, str], body: bytes | None) -> tuple[int, dict[str, Any]]:
    """POST /t/CODE/join: (status, JSON body). `headers` lower-case; `body` None when it was larger
    than MAX_BODY (not read further)."""
    lang = request_lang(headers.get("accept-language", ""))
    data: Any = None
    if body is not None and len(body) <= MAX_BODY:
        try:
            data = json.loads(body.decode("utf-8")) if body else None
        except (ValueError, UnicodeError):
            data = None
    if isinstance(data, dict) and data.get("lang") in i18n.LANGS:
        lang = data["lang"]
    if not limit.allow(client):
        return _refusal(429, lang, "join.err.busy")
    if body is None or len(body) > MAX_BODY:
        return _refusal(413, lang, "join.err.bad")
    if not same_origin(headers):
        return _refusal(403, lang, "join.err.bad")
    if not headers.get("content-type", "").split(";")[0].strip().lower() == "application/json":
        return _refusal(415, lang, "join.err.bad")
    seat, name = (data.get("seat"), data.get("name")) if isinstance(data, dict) else (None, None)
    if not isinstance(seat, int) or isinstance(seat, bool) or not (name is None or isinstance(name, str)):
        return _refusal(400, lang, "join.err.bad")
    if isinstance(name, str) and len(name) > 4 * MAX_NAME:
        return _refusal(400, lang, "tbl.err.name_long", max=MAX_NAME)
    try:
        # the same door as the socket's: a wrong code counts against this address (Hub.admit)
        t = hub.admit(code, client, None)
    except RuleError as e:
        return _refusal(429 if e.key == "tbl.err.too_many_guesses" else 404, lang, e.key, **e.params)
    name = (name or "").strip() or None
    try:
        reply = await t.request("", {"op": "join", "seat": seat, "name": name})
    except RuleError as e:
        if e.key == "tbl.err.seat_taken" and 0 <= seat < len(t.seats):
            return _refusal(409, lang, e.key, t)
        status = 409 if e.key in ("tbl.err.seat_shared", "tbl.err.full", "tbl.err.started") else 400
        return _refusal(status, lang, e.key, t, **e.params)
    except StoreError:
        return _refusal(503, lang, "ui.err.store")
    token = reply["token"]
    taken_as = t.seats[seat]["name"]
    told = joins.taken(data.get("page"), t.code, token, lang if data.get("lang") in i18n.LANGS else None)
    return 200, {"token": token, "seat": seat, "code": t.code, "told": told,
                 "you": i18n.t(lang, "ui.phone.you_are", name=taken_as),
                 "waiting": i18n.t(lang, "ui.phone.waiting_start"),
                 "ready": i18n.t(lang, "ui.phone.seat_ready")}


# ---------- the screen in the page ----------
def _messages(t: Table, lang: str) -> dict[str, Any]:
    """One language's words for the page's script: texts, and templates with "{name}" filled in by
    the script (the seats' names as this language says them: a default "Player 2" is "Person 2")."""
    name = "{name}"
    return {"w": i18n.t(lang, "ui.phone.welcome"), "p": i18n.t(lang, "ui.phone.pick_seat"),
            "y": i18n.t(lang, "ui.phone.your_name"), "g": i18n.t(lang, t.game.NAME),
            "n": [i18n.seat_name(lang, s["name"]) for s in t.seats],
            "free": i18n.t(lang, "ui.phone.take_seat", name=name), "taken": i18n.t(lang, "ui.phone.seat_taken_by", name=name),
            "shared": i18n.t(lang, "ui.phone.seat_shared", name=name), "j": i18n.t(lang, "ui.phone.just_taken", name=name),
            "long": i18n.t(lang, "tbl.err.name_long", max=MAX_NAME), "off": i18n.t(lang, "join.err.offline"),
            "bad": i18n.t(lang, "join.err.bad"), "slow": i18n.t(lang, "ui.phone.slow_start"),
            "r": i18n.t(lang, "ui.reload")}


def _on(colour: str) -> str:
    from companion.ui.kit import on_colour

    try:
        return on_colour(colour)
    except (ValueError, IndexError):
        return "#ffffff"


JOIN_CSS = """<style>
#tc-join{position:fixed;inset:0;z-index:2147483600;overflow-y:auto;background:#fff8f5;color:#231917;
font-family:Roboto,system-ui,-apple-system,"Segoe UI",sans-serif;-webkit-text-size-adjust:100%}
#tc-join[hidden]{display:none}
.tj-top{display:flex;align-items:center;background:#ffdbcc;color:#351000;padding:4px 12px;min-height:56px}
.tj-top b{flex:1;font-size:16px;font-weight:600;overflow-wrap:anywhere}
.tj-top button{width:48px;height:48px;border:0;background:none;color:#351000;font-size:15px;font-family:inherit;cursor:pointer}
.tj-top button[aria-pressed=true]{font-weight:700}
.tj-body{display:flex;flex-direction:column;gap:14px;padding:8px 14px 24px;max-width:720px}
.tj-body h1{font-size:24px;font-weight:700;margin:6px 0 0}
.tj-body p{font-size:18px;margin:0}
.tj-field{position:relative;display:block;margin-top:6px}
.tj-field span{position:absolute;left:12px;top:-9px;padding:0 4px;background:#fff8f5;color:#53433f;font-size:13px}
.tj-field input{box-sizing:border-box;width:100%;height:60px;padding:0 16px;font-size:20px;border:1px solid #85736e;
border-radius:4px;background:transparent;color:inherit;font-family:inherit}
.tj-field input:focus{outline:none;border:2px solid #8d5524;padding:0 15px}
.tj-err{color:#ba1a1a;font-size:16px;min-height:0}
.tj-err:empty{display:none}
.tj-seat{box-sizing:border-box;width:100%;min-height:56px;padding:8px 20px;border-radius:12px;border:0;font-size:18px;
font-weight:600;font-family:inherit;background:var(--c);color:var(--f);cursor:pointer;overflow-wrap:anywhere;
box-shadow:0 1px 2px rgba(0,0,0,.25)}
.tj-seat:disabled{background:transparent;color:rgba(35,25,23,.38);border:1px solid rgba(35,25,23,.12);box-shadow:none;cursor:default}
.tj-seat:focus-visible{outline:3px solid #231917;outline-offset:2px}
.tj-you{display:flex;align-items:center;gap:14px;padding:14px;border-radius:14px;border:3px solid var(--c);
font-size:26px;font-weight:600;overflow-wrap:anywhere}
.tj-you i{flex:none;width:44px;height:44px;border-radius:50%;background:var(--c)}
.tj-card{padding:16px;border-radius:12px;background:#fff1eb;font-size:20px}
.tj-status{font-size:16px;color:#53433f}
.tj-status button{margin-top:10px;min-height:48px;padding:0 20px;border-radius:12px;border:1px solid #85736e;
background:none;font-size:16px;font-family:inherit;color:inherit}
</style>"""

# The screen's behaviour: the phone's language (as the loading screen picks it: the saved one, else
# the device's), hidden at once for a phone that has a seat at this table; a tap → POST; then the
# token where the app reads it and "You are …" until Flutter's own screen is drawn – or a line
# saying it is slow, with a reload. The screen goes when Flutter's first screen is drawn (the event
# the loading screen sends, companion/ui/boot.py) unless the player has started on it (a name typed,
# the field focused, a tap on its way): then it stays the join screen until the seat is taken.
# A seat in storage or the address hides it (Flutter shows that seat) – unless the server found that
# very token no longer valid here (`data-stale`: the token it judged is window.__tcSent, the page's
# `tc_seat` cookie or `?s=` as sent, companion/ui/boot.py): then it is the join screen again.
JOIN_JS = r"""<script>(function(){try{
var M=@MESSAGES@,R=document.getElementById("tc-join"),code=R.getAttribute("data-code"),
s=window.localStorage,st=null,l=null,has=function(k){return typeof k==="string"&&Object.prototype.hasOwnProperty.call(M,k);};
try{st=JSON.parse(s.getItem("flutter.seat:"+code));}catch(e){}
var stale=R.hasAttribute("data-stale"),sent=window.__tcSent||null,q=(/[?&]s=([^&#]*)/.exec(location.search)||[])[1];
try{q=q?decodeURIComponent(q):null;}catch(e){q=null;}
if(stale&&(!sent||(st&&st!==sent)||(q&&q!==sent))){R.remove();return;}
if(!stale&&(st||q)){R.remove();return;}
try{l=JSON.parse(s.getItem("flutter.lang"));}catch(e){}
if(!has(l)){l=(navigator.language||"en").replace("_","-").split("-")[0].toLowerCase();}
if(!has(l)){l=R.getAttribute("data-lang");}
var $=function(id){return document.getElementById(id);},box=$("tj-seats"),name=$("tj-name"),err=$("tj-err"),
busy=false,used=false,ready=false,done=false,mine=null;
function label(){var m=M[l];$("tj-g").textContent=m.g+" \u00b7\u00a0"+code;$("tj-w").textContent=m.w;$("tj-p").textContent=m.p;
$("tj-y").textContent=m.y;name.setAttribute("aria-label",m.y);document.documentElement.lang=l;
Array.prototype.forEach.call(box.children,function(b){var k=m[b.getAttribute("data-state")];
if(k&&!b.hasAttribute("data-fresh"))b.textContent=fill(k,m.n[+b.getAttribute("data-i")]);});
Array.prototype.forEach.call(R.querySelectorAll(".tj-top button"),function(b){b.setAttribute("aria-pressed",b.getAttribute("data-l")===l);});}
function fill(k,n){return k.split("{name}").join(n);}
function seats(list){if(!list)return;list.forEach(function(x){var b=box.children[x.i];if(!b)return;
if(x.state!==b.getAttribute("data-state")||x.state!=="free"){b.disabled=x.state!=="free";b.setAttribute("data-state",x.state);
b.setAttribute("data-fresh","");b.textContent=x.label;}});}
function poll(){if(mine||done||busy)return;fetch("/t/"+code+"/seats?lang="+l,{credentials:"same-origin"}).then(function(x){
if(x.status!==200){clearInterval(polling);return null;}return x.json();}).then(function(r){if(r&&!mine&&!busy)seats(r.seats);},function(){});}
var polling=null;
function gone(){if(done)return;done=true;requestAnimationFrame(function(){requestAnimationFrame(function(){R.remove();});});}
function seated(r,n){mine=r;R.innerHTML="";var top=document.createElement("div"),b=document.createElement("div");
b.className="tj-body";var you=document.createElement("div");you.className="tj-you";you.appendChild(document.createElement("i"));
you.appendChild(document.createTextNode(r.you));you.style.setProperty("--c",n.style.getPropertyValue("--c"));
var c=document.createElement("div");c.className="tj-card";c.textContent=r.waiting;
var w=document.createElement("div");w.className="tj-status";w.id="tj-status";w.setAttribute("role","status");w.textContent=r.ready;
b.appendChild(you);b.appendChild(c);b.appendChild(w);R.appendChild(b);
setTimeout(function(){if(done)return;w.textContent=M[l].slow+" ";var a=document.createElement("button");a.textContent=M[l].r;
a.onclick=function(){location.replace(location.pathname+"?s="+encodeURIComponent(r.token));};w.appendChild(document.createElement("br"));w.appendChild(a);},25000);
check();}
function check(){if(!mine||done)return;if(mine.told?(ready&&location.search.indexOf("s="+encodeURIComponent(mine.token))>=0):ready)gone();}
function tap(b){if(busy||b.disabled)return;busy=true;used=true;err.textContent="";
var i=+b.getAttribute("data-i"),n=name.value.trim();
if(Array.from(n).length>@MAX@){err.textContent=M[l].long;busy=false;return;}
fetch("/t/"+code+"/join",{method:"POST",headers:{"Content-Type":"application/json"},credentials:"same-origin",
body:JSON.stringify({seat:i,name:n||null,page:window.__tcPage||null,lang:l})}).then(function(x){
return x.json().then(function(r){return [x.status,r];},function(){return [x.status,{}];});}).then(function(a){busy=false;var r=a[1];
if(a[0]===200&&r.token){try{s.setItem("flutter.seat:"+code,JSON.stringify(r.token));}catch(e){}
if(/^\/t\/[A-Za-z]{2,12}\/?$/.test(location.pathname))document.cookie="@SEATED@="+encodeURIComponent(r.token)+"; path="+location.pathname.replace(/\/$/,"")+"; SameSite=Strict; max-age=31536000";
if(!r.told){if(!window.__tcSeat||(window.__tcWs&&(ready||!window.__tcPage))){
location.replace(location.pathname+"?s="+encodeURIComponent(r.token));return;}
history.replaceState(history.state,"",location.pathname+"?s="+encodeURIComponent(r.token)+location.hash);
if(window.__tcSeat)window.__tcSeat(r.token);}
seated(r,b);return;}
seats(r.seats);err.textContent=r.key==="tbl.err.seat_taken"?fill(M[l].j,M[l].n[i]):(r.message||M[l].bad);
},function(){busy=false;err.textContent=M[l].off;});}
box.addEventListener("click",function(e){var b=e.target.closest?e.target.closest(".tj-seat"):null;if(b)tap(b);});
name.addEventListener("input",function(){used=true;err.textContent=Array.from(name.value.trim()).length>@MAX@?M[l].long:"";});
name.addEventListener("focus",function(){used=true;});
name.addEventListener("focusout",function(e){var t=e.relatedTarget;if(!done&&!mine&&t&&!R.contains(t)){
setTimeout(function(){if(!done&&R.isConnected)name.focus({preventScroll:true});},0);}});
Array.prototype.forEach.call(R.querySelectorAll(".tj-top button"),function(b){b.addEventListener("click",function(){
l=b.getAttribute("data-l");try{s.setItem("flutter.lang",JSON.stringify(l));}catch(e){}label();});});
window.addEventListener("tc-app-ready",function(){ready=true;if(!mine&&!used&&!busy){gone();return;}check();
if(!mine)polling=setInterval(poll,@POLL@);});
setInterval(check,250);
label();R.hidden=false;
}catch(x){var r=document.getElementById("tc-join");if(r)r.remove();}})();</script>"""


def screen_html(t: Table, lang: str, stale: bool = False) -> str:
    """The join screen for the page of /t/CODE (hidden until its script has looked at the phone's
    storage: a phone with a seat at this table never sees it). Every name escaped. `stale`: the
    seat token this browser sent is not (or no longer) a seat here – shown despite the stored one."""
    seats = seat_list(t, lang)
    messages = {lg: _messages(t, lg) for lg in i18n.LANGS}
    m = messages[lang]
    buttons = []
    for s in seats:
        fg = _on(s["colour"])
        attrs = f'class="tj-seat" type="button" data-i="{s["i"]}" data-state="{s["state"]}"'
        if s["state"] != "free":
            attrs += " disabled"
        buttons.append(f'<button {attrs} style="--c:{s["colour"]};--f:{fg}">{html.escape(s["label"])}</button>')
    langs = "".join(f'<button type="button" data-l="{lg}" title="{html.escape(i18n.LANG_NAMES[lg])}" '
                    f'aria-pressed="{str(lg == lang).lower()}">{lg.upper()}</button>' for lg in i18n.LANGS)
    script = (JOIN_JS.replace("@MESSAGES@", json.dumps(messages, ensure_ascii=False).replace("</", "<\\/"))
              .replace("@MAX@", str(MAX_NAME)).replace("@POLL@", str(POLL_MS)).replace("@SEATED@", boot.SEATED_COOKIE))
    return (f'{JOIN_CSS}<div id="tc-join" hidden data-code="{html.escape(t.code)}" data-lang="{lang}"'
            f'{" data-stale" if stale else ""} role="main">'
            f'<div class="tj-top"><b id="tj-g">{html.escape(m["g"])} \u00b7\u00a0{html.escape(t.code)}</b>{langs}</div>'
            f'<div class="tj-body"><h1 id="tj-w">{html.escape(m["w"])}</h1><p id="tj-p">{html.escape(m["p"])}</p>'
            f'<label class="tj-field"><span id="tj-y">{html.escape(m["y"])}</span>'
            f'<input id="tj-name" type="text" autocomplete="nickname" enterkeyhint="done" spellcheck="false"></label>'
            f'<div class="tj-err" id="tj-err" role="alert"></div>'
            f'<div id="tj-seats" style="display:flex;flex-direction:column;gap:14px">{"".join(buttons)}</div>'
            f'</div>{script}</div>')


# The seated screen's behaviour: shown only while this browser's storage holds the very seat token
# the server judged (window.__tcSent: the `tc_seat` cookie or `?s=` the page was asked with,
# companion/ui/boot.py) – anything else is Flutter's to decide; in the phone's language; gone when
# Flutter's first screen is drawn (the loading screen's "tc-app-ready"); a slow start gets the
# reload line of the join screen.
SEATED_JS = r"""<script>(function(){try{
var M=@MESSAGES@,R=document.getElementById("tc-join"),code=R.getAttribute("data-code"),s=window.localStorage,st=null,l=null,
has=function(k){return typeof k==="string"&&Object.prototype.hasOwnProperty.call(M,k);};
try{st=JSON.parse(s.getItem("flutter.seat:"+code));}catch(e){}
if(!st||st!==window.__tcSent){R.remove();return;}
try{l=JSON.parse(s.getItem("flutter.lang"));}catch(e){}
if(!has(l)){l=(navigator.language||"en").replace("_","-").split("-")[0].toLowerCase();}
if(!has(l)){l=R.getAttribute("data-lang");}
var m=M[l],$=function(id){return document.getElementById(id);},done=false;
$("tj-g").textContent=m.g+" \u00b7\u00a0"+code;$("tj-y").textContent=m.y;$("tj-l").textContent=m.w;document.documentElement.lang=l;
window.addEventListener("tc-app-ready",function(){if(done)return;done=true;
requestAnimationFrame(function(){requestAnimationFrame(function(){R.remove();});});});
setTimeout(function(){if(done)return;var w=$("tj-status");w.textContent=m.slow+" ";var a=document.createElement("button");
a.textContent=m.r;a.onclick=function(){location.reload();};w.appendChild(document.createElement("br"));w.appendChild(a);},25000);
R.hidden=false;
}catch(x){var r=document.getElementById("tc-join");if(r)r.remove();}})();</script>"""


def seated_line(t: Table) -> str:
    """What the seated screen before Flutter says under "You are …": the lobby's wait, as Flutter's
    lobby screen says it; in a game, its screen on its way (the game itself needs Flutter)."""
    return {"lobby": "ui.phone.waiting_start", "ended": "ui.ended"}.get(t.phase, "ui.phone.cards_ready")


def seated_html(t: Table, seat: int, lang: str) -> str:
    """A seated phone's return visit (issue 31.4): its seat, as Flutter's seated screen heads it
    ("You are Ann" in the seat's colour) and the lobby's "waiting for the host" (or, in a game, that
    its screen is on its way), until Flutter's first screen is drawn. Only what that seat's own
    Flutter screen shows first: its own name and colour, the game's name, the code – nothing of any
    other seat. Read-only: renaming, "not me" and the game's moves are Flutter's."""
    s = t.seats[seat]
    colour = s.get("colour") if isinstance(s.get("colour"), str) and COLOUR.match(s["colour"]) else DEFAULT_COLOUR
    line = seated_line(t)
    messages = {lg: {"g": i18n.t(lg, t.game.NAME), "y": i18n.t(lg, "ui.phone.you_are", name=i18n.seat_name(lg, s["name"])),
                     "w": i18n.t(lg, line), "slow": i18n.t(lg, "ui.phone.slow_start"), "r": i18n.t(lg, "ui.reload")}
                for lg in i18n.LANGS}
    m = messages[lang]
    script = SEATED_JS.replace("@MESSAGES@", json.dumps(messages, ensure_ascii=False).replace("</", "<\\/"))
    return (f'{JOIN_CSS}<div id="tc-join" hidden data-seated data-code="{html.escape(t.code)}" data-lang="{lang}" role="main">'
            f'<div class="tj-top"><b id="tj-g">{html.escape(m["g"])} \u00b7\u00a0{html.escape(t.code)}</b></div>'
            f'<div class="tj-body"><div class="tj-you" style="--c:{colour}"><i></i><span id="tj-y">{html.escape(m["y"])}</span></div>'
            f'<div class="tj-card" id="tj-l">{html.escape(m["w"])}</div>'
            f'<div class="tj-status" id="tj-status" role="status"></div></div>{script}</div>')


def page_token(query: str, cookie: str | None) -> str | None:
    """The seat token the page of /t/CODE was asked with: the address's `?s=` (a reload: the app put
    it there), else the `tc_seat` cookie (boot.SEATED_COOKIE, path /t/CODE, set from the browser's
    storage by the page: BOOT_JS). "1" is an older page's flag without a token."""
    for part in query.split("&"):
        k, _, v = part.partition("=")
        if k == "s" and v:
            return unquote(v)
    return cookie if cookie and cookie != "1" else None


def for_page(hub: Hub, code: str, client: str, accept_language: str, query: str, seated: str | None = None) -> str | None:
    """The screen for the page of /t/CODE before Flutter, or None. `seated`: the browser's `tc_seat`
    cookie. A seat token (`page_token`) that holds a seat at this table: that seat's screen
    (`seated_html`), in any phase. Else, for a table in its lobby with a free seat, the join screen
    – marked stale when the token the browser holds is not a seat here (a seat given back, a table
    played again: it must not hide the join screen). None for an unknown code (counted as a wrong
    try: Hub.page_table), a locked-out address, a watcher's token, an older page's flag without a
    token ("1"), or a table whose phone has nothing to take."""
    token = page_token(query, seated)
    t = hub.page_table(normalise_code(code), client, any_phase=token is not None)
    if t is None:
        return None
    lang = request_lang(accept_language)
    if token is not None:
        seat = t.seat_of(token)
        if seat is not None:
            return seated_html(t, seat, lang)
        if t.is_spectator(token):
            return None
    elif seated:
        return None
    if not shows_screen(t):
        return None
    return screen_html(t, lang, stale=token is not None)
