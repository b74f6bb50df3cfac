/* Table Companion: what a phone's browser does for the app beyond Flet's web client.

   A phone joins at http://<laptop>:8550/, which is not a secure context: the browser hides
   navigator.wakeLock and navigator.clipboard there. This script gives the app, on every origin:
   - keep-awake: while a campaign is open (/c/<id>…) and this phone's "keep awake" setting is on,
     the Wake Lock API where the page has it, else a muted, inline, looping video (the NoSleep.js
     technique; its two tiny videos are below). Started from a tap when the browser needs one,
     re-acquired when the page is shown again.
   - copy: the app asks by writing the text to this phone's preferences (localStorage, key
     flutter.companion.copy); the script copies it with the Clipboard API or select-and-copy, and
     says so on the page.
   - a short vibration on rolls (flutter.companion.buzz), where the browser has the Vibration API.
   - spoken turns (flutter.companion.say / hush): the browser's own speechSynthesis reads the app's
     sentences in the phone's language, each request first stopping what was being said; a phone
     that needs a tap before it speaks (iOS) gets one from the player's first tap after switching
     speech on. window.companion.spoken lists what was asked, for tests.
   The app (Python) talks to it through Flet's SharedPreferences, which the web client keeps in
   localStorage under "flutter.<key>". window.companion exposes the state, for tests. */
(function () {
  "use strict";
  var PREFIX = "flutter.companion.";
  /* The NoSleep.js videos (MIT licence, Rich Tibbett), as shipped in the web client's wakelock_plus. */
  var WEBM = 'data:video/webm;base64,GkXfo0AgQoaBAUL3gQFC8oEEQvOBCEKCQAR3ZWJtQoeBAkKFgQIYU4BnQI0VSalmQCgq17FAAw9CQE2AQAZ3aGFtbXlXQUAGd2hhbW15RIlACECPQAAAAAAAFlSua0AxrkAu14EBY8WBAZyBACK1nEADdW5khkAFVl9WUDglhohAA1ZQOIOBAeBABrCBCLqBCB9DtnVAIueBAKNAHIEAAIAwAQCdASoIAAgAAUAmJaQAA3AA/vz0AAA=';
  var MP4 = 'data:video/mp4;base64,AAAAIGZ0eXBtcDQyAAACAGlzb21pc28yYXZjMW1wNDEAAAAIZnJlZQAACKBtZGF0AAAC8wYF///v3EXpvebZSLeWLNgg2SPu73gyNjQgLSBjb3JlIDE0MiByMjQ3OSBkZDc5YTYxIC0gSC4yNjQvTVBFRy00IEFWQyBjb2RlYyAtIENvcHlsZWZ0IDIwMDMtMjAxNCAtIGh0dHA6Ly93d3cudmlkZW9sYW4ub3JnL3gyNjQuaHRtbCAtIG9wdGlvbnM6IGNhYmFjPTEgcmVmPTEgZGVibG9jaz0xOjA6MCBhbmFseXNlPTB4MToweDExMSBtZT1oZXggc3VibWU9MiBwc3k9MSBwc3lfcmQ9MS4wMDowLjAwIG1peGVkX3JlZj0wIG1lX3JhbmdlPTE2IGNocm9tYV9tZT0xIHRyZWxsaXM9MCA4eDhkY3Q9MCBjcW09MCBkZWFkem9uZT0yMSwxMSBmYXN0X3Bza2lwPTEgY2hyb21hX3FwX29mZnNldD0wIHRocmVhZHM9NiBsb29rYWhlYWRfdGhyZWFkcz0xIHNsaWNlZF90aHJlYWRzPTAgbnI9MCBkZWNpbWF0ZT0xIGludGVybGFjZWQ9MCBibHVyYXlfY29tcGF0PTAgY29uc3RyYWluZWRfaW50cmE9MCBiZnJhbWVzPTMgYl9weXJhbWlkPTIgYl9hZGFwdD0xIGJfYmlhcz0wIGRpcmVjdD0xIHdlaWdodGI9MSBvcGVuX2dvcD0wIHdlaWdodHA9MSBrZXlpbnQ9MzAwIGtleWludF9taW49MzAgc2NlbmVjdXQ9NDAgaW50cmFfcmVmcmVzaD0wIHJjX2xvb2thaGVhZD0xMCByYz1jcmYgbWJ0cmVlPTEgY3JmPTIwLjAgcWNvbXA9MC42MCBxcG1pbj0wIHFwbWF4PTY5IHFwc3RlcD00IHZidl9tYXhyYXRlPTIwMDAwIHZidl9idWZzaXplPTI1MDAwIGNyZl9tYXg9MC4wIG5hbF9ocmQ9bm9uZSBmaWxsZXI9MCBpcF9yYXRpbz0xLjQwIGFxPTE6MS4wMACAAAAAOWWIhAA3//p+C7v8tDDSTjf97w55i3SbRPO4ZY+hkjD5hbkAkL3zpJ6h/LR1CAABzgB1kqqzUorlhQAAAAxBmiQYhn/+qZYADLgAAAAJQZ5CQhX/AAj5IQADQGgcIQADQGgcAAAACQGeYUQn/wALKCEAA0BoHAAAAAkBnmNEJ/8ACykhAANAaBwhAANAaBwAAAANQZpoNExDP/6plgAMuSEAA0BoHAAAAAtBnoZFESwr/wAI+SEAA0BoHCEAA0BoHAAAAAkBnqVEJ/8ACykhAANAaBwAAAAJAZ6nRCf/AAsoIQADQGgcIQADQGgcAAAADUGarDRMQz/+qZYADLghAANAaBwAAAALQZ7KRRUsK/8ACPkhAANAaBwAAAAJAZ7pRCf/AAsoIQADQGgcIQADQGgcAAAACQGe60Qn/wALKCEAA0BoHAAAAA1BmvA0TEM//qmWAAy5IQADQGgcIQADQGgcAAAAC0GfDkUVLCv/AAj5IQADQGgcAAAACQGfLUQn/wALKSEAA0BoHCEAA0BoHAAAAAkBny9EJ/8ACyghAANAaBwAAAANQZs0NExDP/6plgAMuCEAA0BoHAAAAAtBn1JFFSwr/wAI+SEAA0BoHCEAA0BoHAAAAAkBn3FEJ/8ACyghAANAaBwAAAAJAZ9zRCf/AAsoIQADQGgcIQADQGgcAAAADUGbeDRMQz/+qZYADLkhAANAaBwAAAALQZ+WRRUsK/8ACPghAANAaBwhAANAaBwAAAAJAZ+1RCf/AAspIQADQGgcAAAACQGft0Qn/wALKSEAA0BoHCEAA0BoHAAAAA1Bm7w0TEM//qmWAAy4IQADQGgcAAAAC0Gf2kUVLCv/AAj5IQADQGgcAAAACQGf+UQn/wALKCEAA0BoHCEAA0BoHAAAAAkBn/tEJ/8ACykhAANAaBwAAAANQZvgNExDP/6plgAMuSEAA0BoHCEAA0BoHAAAAAtBnh5FFSwr/wAI+CEAA0BoHAAAAAkBnj1EJ/8ACyghAANAaBwhAANAaBwAAAAJAZ4/RCf/AAspIQADQGgcAAAADUGaJDRMQz/+qZYADLghAANAaBwAAAALQZ5CRRUsK/8ACPkhAANAaBwhAANAaBwAAAAJAZ5hRCf/AAsoIQADQGgcAAAACQGeY0Qn/wALKSEAA0BoHCEAA0BoHAAAAA1Bmmg0TEM//qmWAAy5IQADQGgcAAAAC0GehkUVLCv/AAj5IQADQGgcIQADQGgcAAAACQGepUQn/wALKSEAA0BoHAAAAAkBnqdEJ/8ACyghAANAaBwAAAANQZqsNExDP/6plgAMuCEAA0BoHCEAA0BoHAAAAAtBnspFFSwr/wAI+SEAA0BoHAAAAAkBnulEJ/8ACyghAANAaBwhAANAaBwAAAAJAZ7rRCf/AAsoIQADQGgcAAAADUGa8DRMQz/+qZYADLkhAANAaBwhAANAaBwAAAALQZ8ORRUsK/8ACPkhAANAaBwAAAAJAZ8tRCf/AAspIQADQGgcIQADQGgcAAAACQGfL0Qn/wALKCEAA0BoHAAAAA1BmzQ0TEM//qmWAAy4IQADQGgcAAAAC0GfUkUVLCv/AAj5IQADQGgcIQADQGgcAAAACQGfcUQn/wALKCEAA0BoHAAAAAkBn3NEJ/8ACyghAANAaBwhAANAaBwAAAANQZt4NExC//6plgAMuSEAA0BoHAAAAAtBn5ZFFSwr/wAI+CEAA0BoHCEAA0BoHAAAAAkBn7VEJ/8ACykhAANAaBwAAAAJAZ+3RCf/AAspIQADQGgcAAAADUGbuzRMQn/+nhAAYsAhAANAaBwhAANAaBwAAAAJQZ/aQhP/AAspIQADQGgcAAAACQGf+UQn/wALKCEAA0BoHCEAA0BoHCEAA0BoHCEAA0BoHCEAA0BoHCEAA0BoHAAACiFtb292AAAAbG12aGQAAAAA1YCCX9WAgl8AAAPoAAAH/AABAAABAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAAAAGGlvZHMAAAAAEICAgAcAT////v7/AAAF+XRyYWsAAABcdGtoZAAAAAPVgIJf1YCCXwAAAAEAAAAAAAAH0AAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAEAAAAAAygAAAMoAAAAAACRlZHRzAAAAHGVsc3QAAAAAAAAAAQAAB9AAABdwAAEAAAAABXFtZGlhAAAAIG1kaGQAAAAA1YCCX9WAgl8AAV+QAAK/IFXEAAAAAAAtaGRscgAAAAAAAAAAdmlkZQAAAAAAAAAAAAAAAFZpZGVvSGFuZGxlcgAAAAUcbWluZgAAABR2bWhkAAAAAQAAAAAAAAAAAAAAJGRpbmYAAAAcZHJlZgAAAAAAAAABAAAADHVybCAAAAABAAAE3HN0YmwAAACYc3RzZAAAAAAAAAABAAAAiGF2YzEAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAygDKAEgAAABIAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY//8AAAAyYXZjQwFNQCj/4QAbZ01AKOyho3ySTUBAQFAAAAMAEAAr8gDxgxlgAQAEaO+G8gAAABhzdHRzAAAAAAAAAAEAAAA8AAALuAAAABRzdHNzAAAAAAAAAAEAAAABAAAB8GN0dHMAAAAAAAAAPAAAAAEAABdwAAAAAQAAOpgAAAABAAAXcAAAAAEAAAAAAAAAAQAAC7gAAAABAAA6mAAAAAEAABdwAAAAAQAAAAAAAAABAAALuAAAAAEAADqYAAAAAQAAF3AAAAABAAAAAAAAAAEAAAu4AAAAAQAAOpgAAAABAAAXcAAAAAEAAAAAAAAAAQAAC7gAAAABAAA6mAAAAAEAABdwAAAAAQAAAAAAAAABAAALuAAAAAEAADqYAAAAAQAAF3AAAAABAAAAAAAAAAEAAAu4AAAAAQAAOpgAAAABAAAXcAAAAAEAAAAAAAAAAQAAC7gAAAABAAA6mAAAAAEAABdwAAAAAQAAAAAAAAABAAALuAAAAAEAADqYAAAAAQAAF3AAAAABAAAAAAAAAAEAAAu4AAAAAQAAOpgAAAABAAAXcAAAAAEAAAAAAAAAAQAAC7gAAAABAAA6mAAAAAEAABdwAAAAAQAAAAAAAAABAAALuAAAAAEAADqYAAAAAQAAF3AAAAABAAAAAAAAAAEAAAu4AAAAAQAAOpgAAAABAAAXcAAAAAEAAAAAAAAAAQAAC7gAAAABAAA6mAAAAAEAABdwAAAAAQAAAAAAAAABAAALuAAAAAEAAC7gAAAAAQAAF3AAAAABAAAAAAAAABxzdHNjAAAAAAAAAAEAAAABAAAAAQAAAAEAAAEEc3RzegAAAAAAAAAAAAAAPAAAAzQAAAAQAAAADQAAAA0AAAANAAAAEQAAAA8AAAANAAAADQAAABEAAAAPAAAADQAAAA0AAAARAAAADwAAAA0AAAANAAAAEQAAAA8AAAANAAAADQAAABEAAAAPAAAADQAAAA0AAAARAAAADwAAAA0AAAANAAAAEQAAAA8AAAANAAAADQAAABEAAAAPAAAADQAAAA0AAAARAAAADwAAAA0AAAANAAAAEQAAAA8AAAANAAAADQAAABEAAAAPAAAADQAAAA0AAAARAAAADwAAAA0AAAANAAAAEQAAAA8AAAANAAAADQAAABEAAAANAAAADQAAAQBzdGNvAAAAAAAAADwAAAAwAAADZAAAA3QAAAONAAADoAAAA7kAAAPQAAAD6wAAA/4AAAQXAAAELgAABEMAAARcAAAEbwAABIwAAAShAAAEugAABM0AAATkAAAE/wAABRIAAAUrAAAFQgAABV0AAAVwAAAFiQAABaAAAAW1AAAFzgAABeEAAAX+AAAGEwAABiwAAAY/AAAGVgAABnEAAAaEAAAGnQAABrQAAAbPAAAG4gAABvUAAAcSAAAHJwAAB0AAAAdTAAAHcAAAB4UAAAeeAAAHsQAAB8gAAAfjAAAH9gAACA8AAAgmAAAIQQAACFQAAAhnAAAIhAAACJcAAAMsdHJhawAAAFx0a2hkAAAAA9WAgl/VgIJfAAAAAgAAAAAAAAf8AAAAAAAAAAAAAAABAQAAAAABAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAACsm1kaWEAAAAgbWRoZAAAAADVgIJf1YCCXwAArEQAAWAAVcQAAAAAACdoZGxyAAAAAAAAAABzb3VuAAAAAAAAAAAAAAAAU3RlcmVvAAAAAmNtaW5mAAAAEHNtaGQAAAAAAAAAAAAAACRkaW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAAAQAAAidzdGJsAAAAZ3N0c2QAAAAAAAAAAQAAAFdtcDRhAAAAAAAAAAEAAAAAAAAAAAACABAAAAAArEQAAAAAADNlc2RzAAAAAAOAgIAiAAIABICAgBRAFQAAAAADDUAAAAAABYCAgAISEAaAgIABAgAAABhzdHRzAAAAAAAAAAEAAABYAAAEAAAAABxzdHNjAAAAAAAAAAEAAAABAAAAAQAAAAEAAAAUc3RzegAAAAAAAAAGAAAAWAAAAXBzdGNvAAAAAAAAAFgAAAOBAAADhwAAA5oAAAOtAAADswAAA8oAAAPfAAAD5QAAA/gAAAQLAAAEEQAABCgAAAQ9AAAEUAAABFYAAARpAAAEgAAABIYAAASbAAAErgAABLQAAATHAAAE3gAABPMAAAT5AAAFDAAABR8AAAUlAAAFPAAABVEAAAVXAAAFagAABX0AAAWDAAAFmgAABa8AAAXCAAAFyAAABdsAAAXyAAAF+AAABg0AAAYgAAAGJgAABjkAAAZQAAAGZQAABmsAAAZ+AAAGkQAABpcAAAauAAAGwwAABskAAAbcAAAG7wAABwYAAAcMAAAHIQAABzQAAAc6AAAHTQAAB2QAAAdqAAAHfwAAB5IAAAeYAAAHqwAAB8IAAAfXAAAH3QAAB/AAAAgDAAAICQAACCAAAAg1AAAIOwAACE4AAAhhAAAIeAAACH4AAAiRAAAIpAAACKoAAAiwAAAItgAACLwAAAjCAAAAFnVkdGEAAAAObmFtZVN0ZXJlbwAAAHB1ZHRhAAAAaG1ldGEAAAAAAAAAIWhkbHIAAAAAAAAAAG1kaXJhcHBsAAAAAAAAAAAAAAAAO2lsc3QAAAAzqXRvbwAAACtkYXRhAAAAAQAAAABIYW5kQnJha2UgMC4xMC4yIDIwMTUwNjExMDA=';

  var lock = null, video = null, busy = false, mode = null, copies = [], spoken = [], voiceUnlocked = false;

  function pref(name, fallback) {
    try {
      var raw = localStorage.getItem(PREFIX + name);
      return raw === null ? fallback : JSON.parse(raw);
    } catch (e) {
      return fallback;
    }
  }

  function campaignOpen() {
    // The route is the path when served by the laptop, the hash in the static build (a phone alone).
    return /^\/c\/\d+(\/|$)/.test(location.pathname) || /^#\/c\/\d+(\/|$)/.test(location.hash);
  }

  function wanted() {
    return campaignOpen() && pref("keep_awake", true) !== false && document.visibilityState === "visible";
  }

  function videoPlaying() {
    return !!video && !video.paused && !video.ended;
  }

  function active() {
    return (!!lock && !lock.released) || videoPlaying();
  }

  function makeVideo() {
    var v = document.createElement("video");
    v.setAttribute("title", "Keeping the screen awake");
    v.setAttribute("playsinline", "");
    v.setAttribute("muted", "");
    v.muted = true;
    v.playsInline = true;
    v.loop = true;
    v.setAttribute("aria-hidden", "true");
    v.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;opacity:0.01;pointer-events:none;z-index:-1";
    [["webm", WEBM], ["mp4", MP4]].forEach(function (s) {
      var source = document.createElement("source");
      source.type = "video/" + s[0];
      source.src = s[1];
      v.appendChild(source);
    });
    // A one-second video can stall at its end on some phones instead of looping: restart it early.
    v.addEventListener("timeupdate", function () {
      if (v.currentTime > 0.5) v.currentTime = Math.random() * 0.1;
    });
    document.body.appendChild(v);
    return v;
  }

  function acquire() {
    if (busy) return;
    busy = true;
    var tryVideo = function () {
      video = video || makeVideo();
      return video.play().then(function () {
        mode = "video";
      });
    };
    var attempt = navigator.wakeLock
      ? navigator.wakeLock.request("screen").then(function (l) {
          lock = l;
          mode = "wakelock";
          l.addEventListener("release", function () {
            if (lock === l) lock = null;
            setTimeout(sync, 0);
          });
        }, tryVideo)
      : tryVideo();
    attempt.catch(function () {
      mode = null; // the browser wants a tap first: the next tap tries again
    }).then(function () {
      busy = false;
      if (!wanted()) release();
    });
  }

  function release() {
    if (lock) {
      var l = lock;
      lock = null;
      l.release().catch(function () {});
    }
    if (video && !video.paused) video.pause();
    mode = null;
  }

  function sync() {
    var want = wanted();
    if (want && !active()) acquire();
    else if (!want && active()) release();
  }

  // --- copy ---

  function note(text, error) {
    var box = document.createElement("div");
    box.setAttribute("role", "status");
    box.className = "companion-note";
    box.textContent = text;
    box.style.cssText = "position:fixed;left:50%;bottom:96px;transform:translateX(-50%);max-width:90vw;" +
      "padding:12px 18px;border-radius:8px;font:16px system-ui,sans-serif;z-index:10000;pointer-events:none;" +
      "box-shadow:0 2px 8px rgba(0,0,0,.4);color:#fff;background:" + (error ? "#b3261e" : "#2b3a3a");
    document.body.appendChild(box);
    setTimeout(function () { box.remove(); }, error ? 6000 : 2500);
  }

  function selectAndCopy(text) {
    var area = document.createElement("textarea");
    var focused = document.activeElement;
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.cssText = "position:fixed;left:0;top:0;width:2em;height:2em;opacity:0;font-size:16px";
    document.body.appendChild(area);
    area.focus();
    area.select();
    area.setSelectionRange(0, text.length);
    var ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    area.remove();
    if (focused && focused.focus) focused.focus();
    return ok;
  }

  function copy(text) {
    var done = function (ok, how) {
      copies.push({ text: text, ok: ok, how: how });
      note(ok ? "Copied" : "This phone didn't let the app copy. Select the text and copy it.", !ok);
      return ok;
    };
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return done(true, "clipboard"); },
        function () { return done(selectAndCopy(text), "select"); });
    }
    return Promise.resolve(done(selectAndCopy(text), "select"));
  }

  function buzz() {
    try {
      if (navigator.vibrate) navigator.vibrate(40);
    } catch (e) { /* harmless elsewhere */ }
  }

  // --- spoken turns ---

  function synth() {
    return window.speechSynthesis && typeof window.SpeechSynthesisUtterance === "function" ? window.speechSynthesis : null;
  }

  function hush() {
    var s = synth();
    if (s) { try { s.cancel(); } catch (e) { /* nothing to stop */ } }
  }

  function say(lang, sentences) {
    var s = synth();
    spoken.push({ lang: lang, sentences: sentences.slice(), spoken: !!s });
    if (!s) return;
    hush();
    // The voice for the phone's language, where the browser has one (else its default voice).
    var voices = [];
    try { voices = s.getVoices() || []; } catch (e) { voices = []; }
    var voice = null;
    for (var i = 0; i < voices.length && !voice; i++) {
      if ((voices[i].lang || "").toLowerCase().split(/[-_]/)[0] === lang) voice = voices[i];
    }
    sentences.forEach(function (text) {
      var u = new SpeechSynthesisUtterance(String(text));
      u.lang = lang;
      if (voice) u.voice = voice;
      s.speak(u);
    });
  }

  function unlockVoice() {
    // Safari speaks only after a tap has started speech once: an empty utterance, from the first tap.
    if (voiceUnlocked || pref("speech", false) !== true) return;
    var s = synth();
    if (!s) return;
    voiceUnlocked = true;
    try { s.speak(new SpeechSynthesisUtterance("")); } catch (e) { /* harmless */ }
  }

  // --- the app's requests, as it writes its preferences ---

  function onPref(key, raw) {
    if (key.indexOf(PREFIX) !== 0) return;
    var name = key.slice(PREFIX.length), value;
    try { value = JSON.parse(raw); } catch (e) { value = raw; }
    if (name === "copy") {
      // The app writes {"n": <a counter, so each request is a new write>, "text": …} as a string.
      if (typeof value === "string") { try { value = JSON.parse(value); } catch (e) { value = { text: value }; } }
      var text = (value && value.text) || "";
      copy(text);
      setTimeout(function () { localStorage.removeItem(key); }, 0); // a join link needn't stay in the phone
    } else if (name === "say" || name === "hush") {
      if (typeof value === "string") { try { value = JSON.parse(value); } catch (e) { value = {}; } }
      var asked = (value && value.text) || {};
      if (name === "say") say(String(asked.lang || "en"), (asked.sentences || []).map(String));
      else hush();
      setTimeout(function () { localStorage.removeItem(key); }, 0);
    } else if (name === "speech") {
      if (value !== true) hush();
    } else if (name === "buzz") {
      buzz();
    } else if (name === "keep_awake") {
      setTimeout(sync, 0);
    }
  }

  var setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    setItem.call(this, key, value);
    if (this === window.localStorage) {
      try { onPref(String(key), String(value)); } catch (e) { /* never break the app's own write */ }
    }
  };

  // --- when to look again ---

  ["pushState", "replaceState"].forEach(function (name) {
    var original = history[name];
    history[name] = function () {
      var result = original.apply(this, arguments);
      setTimeout(sync, 0);
      return result;
    };
  });
  window.addEventListener("popstate", sync);
  document.addEventListener("visibilitychange", sync);
  // A tap is what lets a browser start the video (and Chrome the wake lock after a refusal).
  ["pointerup", "touchend", "click", "keydown"].forEach(function (type) {
    window.addEventListener(type, sync, true);
    window.addEventListener(type, unlockVoice, true);
  });
  setInterval(sync, 2000);

  window.companion = {
    keepAwake: function () {
      return { wanted: wanted(), active: active(), mode: active() ? mode : null,
               lock: !!lock && !lock.released, videoPlaying: videoPlaying() };
    },
    copies: copies,
    copy: copy,
    spoken: spoken,
    sync: sync,
  };
})();
