"""What a phone's first screen needs from its browser, handed over with the WebSocket handshake.

A new session used to ask the browser three things before it could draw anything: the saved
language, the device's language and this table's seat token (or host key). That was a round
trip through a phone that is busy starting Flutter – 100–200 ms of a return visit on the
benchmark machine. Now the page itself (a few lines of script in index.html, `BOOT_JS`) reads the
same values from localStorage when it loads and puts them into a short-lived cookie, `tc_boot`;
the browser sends it with the WebSocket handshake, the server hands it to the session through
`BOOT`, and the first screen goes out in one message. A stored seat token is also put into the
phone's address before Flutter reads it, where the session would otherwise move the address itself
after the first screen (for a tab Flet re-creates after a server restart, whose storage does not
answer: Flet #6412) – one message and one route change less on the phone.

A host key never goes into the address: the host page is the screen the whole table looks at.
The page keeps it in a cookie of its own instead (`tc_h_CODE`, SameSite=Strict, set from storage
at every load), which every WebSocket handshake and every download from this browser carries, the
handshake of a re-created session included (`CONN`). A host link that brings a key in the
address (`/host/CODE?k=…`) has it moved into storage and out of the address before Flutter starts.

A seat this browser holds at the table (stored, or stored later by the app: the page watches its
storage's writes and removals of that key) is also kept in a cookie, `tc_seat` on the path /t/CODE
(SameSite=Strict; deleted with the stored seat): the next page of /t/CODE carries that seat's own
screen in HTML instead of the join screen, shown until Flutter's first screen is drawn
(companion/join_page.py `seated_html`: its name and colour only, checked by the server like any
token). The token the page was asked with (`?s=`, else that cookie) is `window.__tcSent`: that
screen shows only while storage still holds that very token.

The page also gives itself a random id (`window.__tcPage`, `p` in the cookie): a seat its HTML join
screen takes (companion/join_page.py) reaches the Flet session of the same page by it, and
`window.__tcSeat(token)` puts such a seat into the cookie while the socket is not open yet.

The cookie is a hint, never authority: the token in it is checked like any other, it names the
storage key it was read for (a cookie of another table is ignored), it lives 60 s at most and is
deleted as soon as the page's first socket is open – a session Flet re-creates later (e.g. after
a server restart) asks the browser again, as before. Without a usable cookie (cookies off, an
old page) the session asks, as before.
"""

from __future__ import annotations

import html
import json
from contextvars import ContextVar
from typing import Any, NamedTuple
from urllib.parse import unquote


class Boot(NamedTuple):
    lang: str | None  # the saved language (SharedPreferences "lang")
    device_lang: str | None  # navigator.language
    key: str | None  # the storage key read for this page ("seat:CODE" / "host:CODE"), None on other pages
    value: str | None  # what that key held
    page: str | None = None  # the page's own random id (its HTML join screen's taps: companion/join_page.py)


COOKIE = "tc_boot"
MAX_BYTES = 1024
# Set for the task that serves one WebSocket (companion.web), read by the session it starts.
BOOT: ContextVar[Boot | None] = ContextVar("tc_boot", default=None)


class Conn(NamedTuple):
    """What the server itself knows of a browser connection – never what the client says of itself.

    `client` is the peer address of the TCP connection (the ASGI scope's "client"), not Flet's
    `page.client_ip`, which the client may overwrite with an UPDATE_CONTROL_PROPS message (found by
    attacking the server: the join-code guess limit was keyed on it). `host_keys` are the host
    keys this browser holds for its tables (the `tc_h_CODE` cookies the page sets from its storage,
    see BOOT_JS): sent with every handshake, also the one of a session Flet re-creates after a
    server restart, whose storage never answers (Flet #6412) – so the key need not sit in the
    host page's address, where the whole table can read it."""

    client: str | None  # the peer's IP address; None when unknown (an in-process test)
    host_keys: dict[str, str]  # join code -> host key, as the browser's cookies hold them


HOST_COOKIE = "tc_h_"  # + join code: one cookie per table this browser hosts
# The seat token this browser holds at a table (path /t/CODE: sent with that page only; "1" from an
# older page: a flag without the token): the page of a seated phone carries its seat's own screen
# instead of the HTML join screen (companion/join_page.py).
SEATED_COOKIE = "tc_seat"
SEATED_SCREEN = " data-seated "  # (in the HTML of a seated phone's screen: companion/join_page.py seated_html)
CONN: ContextVar[Conn | None] = ContextVar("tc_conn", default=None)
LOOPBACK = ("127.", "::1", "::ffff:127.")


def conn() -> Conn:
    """The connection info of the socket being served (an empty one where there is none)."""
    return CONN.get() or Conn(None, {})


def is_loopback(address: str | None) -> bool:
    """A connection from the machine the server runs on (the host's own browser)."""
    return bool(address) and (address == "::1" or any(address.startswith(p) for p in LOOPBACK))  # type: ignore[union-attr]


def cookies(scope: dict[str, Any]) -> dict[str, str]:
    """The cookies of an ASGI request (the last of each name wins), values URL-decoded."""
    out: dict[str, str] = {}
    for k, val in scope.get("headers", []):
        if k.lower() != b"cookie":
            continue
        for part in val.decode("latin-1").split(";"):
            name, _, raw = part.strip().partition("=")
            if name and len(raw) <= MAX_BYTES:
                out[name] = unquote(raw)
    return out


def host_keys(jar: dict[str, str]) -> dict[str, str]:
    """{code: key} from the `tc_h_CODE` cookies; anything malformed is left out (a hint, never
    authority: each key is checked against its table like any other)."""
    out: dict[str, str] = {}
    for name, value in jar.items():
        if name.startswith(HOST_COOKIE) and 0 < len(value) <= 200:
            code = name[len(HOST_COOKIE):]
            if code.isalpha() and len(code) <= 12:
                out[code.upper()] = value
    return out


def conn_from_scope(scope: dict[str, Any]) -> Conn:
    """The connection's own peer address and the host keys its cookies hold."""
    client = scope.get("client")
    address = client[0] if isinstance(client, (list, tuple)) and client and isinstance(client[0], str) else None
    return Conn(address, host_keys(cookies(scope)))

# Flutter's SharedPreferences on the web keep each value JSON-encoded under "flutter.<key>".
# The key is made as the server makes it (screens.Screen.start: "seat:"/"host:" + the code
# without spaces, upper case, at most 12 characters); a mismatch only means the server asks.
BOOT_JS = r"""<script>(function(){try{
var s=window.localStorage,c="@COOKIE@=",e="; path=/; SameSite=Strict",k=null,v=null,
m=/^\/(t|host)\/([^\/?#]+)/.exec(location.pathname);
function g(n){var x=s.getItem("flutter."+n);if(x===null)return null;x=JSON.parse(x);return typeof x==="string"?x:null;}
if(m){var code=decodeURIComponent(m[2]).replace(/\s+/g,"").toUpperCase().slice(0,12);
k=(m[1]==="t"?"seat:":"host:")+code;v=g(k);
if(m[1]==="t"){var sk=/^[A-Za-z]{2,12}$/.test(m[2])?"@SEATED@=":null,sc=sk?document.cookie.split("; ").filter(function(x){return x.indexOf(sk)===0;})[0]:null,
sq=/[?&]s=([^&#]*)/.exec(location.search);
try{sc=sq&&sq[1]?decodeURIComponent(sq[1]):sc?decodeURIComponent(sc.slice(sk.length)):null;}catch(x){sc=null;}
window.__tcSent=sc&&sc!=="1"?sc:null;
if(v&&!/[?&]s=/.test(location.search)){history.replaceState(history.state,"",
location.pathname+(location.search?location.search+"&":"?")+"s="+encodeURIComponent(v)+location.hash);}
var seated=function(t){t=typeof t==="string"&&t?t:null;if(sk)document.cookie=sk+(t?encodeURIComponent(t):"")+"; path=/t/"+m[2]+"; SameSite=Strict; max-age="+(t?31536000:0);};
if(v){seated(v);}else if(sc){seated(null);}
var SI=Storage.prototype.setItem,RI=Storage.prototype.removeItem;
Storage.prototype.setItem=function(a,b){SI.apply(this,arguments);if(a==="flutter."+k){try{seated(JSON.parse(b));}catch(x){}}};
Storage.prototype.removeItem=function(a){RI.apply(this,arguments);if(a==="flutter."+k){try{seated(null);}catch(x){}}};}
else{var a=/^[A-Z]+$/.test(code)?"@HOST@"+code+"=":null,q=new URLSearchParams(location.search),x=q.get("k");
if(x){if(!v){s.setItem("flutter."+k,JSON.stringify(x));v=x;}q.delete("k");var r=q.toString();
history.replaceState(history.state,"",location.pathname+(r?"?"+r:"")+location.hash);}
if(a&&v){document.cookie=a+encodeURIComponent(v)+e+"; max-age=31536000";}}}
var P="";try{var rb=new Uint8Array(16);crypto.getRandomValues(rb);for(var i=0;i<16;i++)P+=(rb[i]+256).toString(16).slice(1);}catch(x){}
window.__tcPage=P||null;
function put(){document.cookie=c+encodeURIComponent(JSON.stringify({l:g("lang"),n:navigator.language||null,k:k,v:v,p:P||null}))+e+"; max-age=60";}
put();window.__tcSeat=function(t){if(!window.__tcWs&&k&&k.indexOf("seat:")===0){v=t;put();}};
var W=window.WebSocket;if(!W)return;
window.WebSocket=function(u,p){window.WebSocket=W;window.__tcWs=1;var w=p===undefined?new W(u):new W(u,p),
d=function(){document.cookie=c+e+"; max-age=0";};w.addEventListener("open",d);w.addEventListener("error",d);return w;};
window.WebSocket.prototype=W.prototype;
}catch(x){}})();</script>
""".replace("@COOKIE@", COOKIE).replace("@HOST@", HOST_COOKIE).replace("@SEATED@", SEATED_COOKIE)


# A browser whose locale is `C`/`POSIX` (WebKitGTK under LANG=C reports navigator.languages ==
# ['C']) or an otherwise malformed tag ("en_US.UTF-8") makes Flutter throw "invalid language tag"
# at start: the page stays on its loading screen for ever. This runs first on every page, before
# anything reads the languages, and gives navigator.languages/.language only well-formed BCP 47
# tags (canonicalised by Intl; `_` → `-`, any ".charset"/"@modifier" cut off), English when none
# is left. A browser whose tags are fine is left untouched.
LOCALE_JS = r"""<script>(function(){try{var n=navigator,src=[],out=[],bad=false;
function ok(t){if(typeof t!=="string")return null;t=t.split(".")[0].split("@")[0].replace(/_/g,"-");
if(!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(t))return null;
try{return Intl.getCanonicalLocales(t)[0]||null;}catch(e){return null;}}
try{src=n.languages&&n.languages.length?Array.prototype.slice.call(n.languages):[n.language];}catch(e){bad=true;}
src.forEach(function(t){var c=ok(t);if(c!==t)bad=true;if(c&&out.indexOf(c)<0)out.push(c);});
if(!out.length){out=["en"];bad=true;}if(!bad)return;
Object.defineProperty(n,"languages",{configurable:true,get:function(){return out.slice();}});
Object.defineProperty(n,"language",{configurable:true,get:function(){return out[0];}});
}catch(e){}})();</script>
"""


def _text(x: Any) -> str | None:
    return x if isinstance(x, str) and len(x) <= 200 else None


def parse(cookie_header: str) -> Boot | None:
    """The boot values from a Cookie header, None when it has no well-formed `tc_boot`."""
    for part in cookie_header.split(";"):
        name, _, raw = part.strip().partition("=")
        if name != COOKIE or not raw or len(raw) > MAX_BYTES:
            continue
        try:
            data = json.loads(unquote(raw))
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        page = data.get("p")
        return Boot(_text(data.get("l")), _text(data.get("n")), _text(data.get("k")), _text(data.get("v")),
                    page if isinstance(page, str) and 16 <= len(page) <= 64 and page.isalnum() else None)
    return None


def from_scope(scope: dict[str, Any]) -> Boot | None:
    """The boot values sent with an ASGI WebSocket handshake."""
    for k, val in scope.get("headers", []):
        if k.lower() == b"cookie":
            found = parse(val.decode("latin-1"))
            if found is not None:
                return found
    return None


# ---------- what the page shows until Flutter's first frame ----------
# Flet's page shows Flet's logo on white for the 1.5–3.5 s a phone needs to start the client. Ours:
# the app's own icon (tools/draw_icons.py), its name, and "Opening table ABCD…" in the phone's
# language (the saved one, else the device's: as the app picks it), on the app's background so
# the first frame does not flash. Flet's page removes #loading at Flutter's first frame, which then
# shows a blank page and Flet's own "Working..." until the app's first screen has come over the
# socket (≈ 0.3–0.5 s here); so the script renames it and takes it away itself when that screen
# is built: Flutter empties document.title at its first frame and sets the app's title when it
# applies the first patch from the session (the same message as the first screen, see
# Screen.start) – two animation frames later the screen is drawn. 3 s after the first frame at
# the latest; taps go through it from the first frame on. Then it sends the page the event
# "tc-app-ready" (the HTML join screen, companion/join_page.py, goes or stays by it).
LOADING_CSS = """<style>
#loading,#tc-loading{position:fixed;inset:0;z-index:2147483000;display:flex;flex-direction:column;gap:12px;
align-items:center;justify-content:center;background:#fff8f5;color:#3b2a1e;text-align:center;padding:24px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;transition:opacity .2s}
#loading img,#tc-loading img{width:96px;height:96px}
.tc-name{font-size:22px;font-weight:600}
.tc-status{font-size:16px;color:#6b5647;min-height:20px}
.tc-spin{width:26px;height:26px;margin-top:6px;border:3px solid #ead8c6;border-top-color:#8d5524;
border-radius:50%;animation:tc-spin .9s linear infinite}
@keyframes tc-spin{to{transform:rotate(360deg)}}
@media (prefers-color-scheme:dark){#loading,#tc-loading{background:#fff8f5}}
@media (prefers-reduced-motion:reduce){.tc-spin{animation:none}}
</style>"""
LOADING_JS = r"""<script>(function(){try{
var M=@MESSAGES@,l=null,m=/^\/(t|host)\/([^\/?#]+)/.exec(location.pathname),
has=function(k){return typeof k==="string"&&Object.prototype.hasOwnProperty.call(M,k);};
try{l=JSON.parse(localStorage.getItem("flutter.lang"));}catch(e){}
if(!has(l)){l=(navigator.language||"en").replace("_","-").split("-")[0].toLowerCase();}
if(!has(l)){l="en";}
var code=m?decodeURIComponent(m[2]).replace(/\s+/g,"").toUpperCase().slice(0,12):"";
document.documentElement.lang=l;
document.getElementById("tc-name").textContent=M[l].n;
var t=code?M[l].o.replace("{code}",code):M[l].s,box=document.getElementById("loading");
document.getElementById("tc-status").textContent=t;box.setAttribute("aria-label",t);
box.id="tc-loading";var done=false,emptied=false,obs=null;
function gone(){if(done)return;done=true;if(obs)obs.disconnect();box.style.opacity="0";setTimeout(function(){box.remove();},200);
try{window.dispatchEvent(new Event("tc-app-ready"));}catch(e){}}
function watch(){if(done)return;if(!document.title){emptied=true;}else if(emptied){
requestAnimationFrame(function(){requestAnimationFrame(gone);});}}
window.addEventListener("flutter-first-frame",function(){box.style.pointerEvents="none";
if(window.MutationObserver){obs=new MutationObserver(watch);obs.observe(document.head,{subtree:true,childList:true,characterData:true});}
watch();setTimeout(gone,3000);},{once:true});
}catch(e){}})();</script>"""


def loading_screen(icon_src: str) -> str:
    """The inside of the page's #loading element (the icon's URL given), with its style and script."""
    from companion import i18n

    messages = {lang: {"n": i18n.t(lang, "ui.home.title"), "o": i18n.t(lang, "boot.opening", code="{code}"),
                       "s": i18n.t(lang, "boot.starting")} for lang in i18n.LANGS}
    en = messages["en"]
    return (f'{LOADING_CSS}<img src="{html.escape(icon_src)}" alt="" />'
            f'<div class="tc-name" id="tc-name">{html.escape(en["n"])}</div>'
            f'<div class="tc-status" id="tc-status">{html.escape(en["s"])}</div>'
            f'<div class="tc-spin"></div>'
            + LOADING_JS.replace("@MESSAGES@", json.dumps(messages, ensure_ascii=False).replace("</", "<\\/")))
