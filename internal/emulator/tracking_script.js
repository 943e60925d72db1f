// The tracking script of the phpAnalytics API emulator, served at
// {base_url}/js/script.js. It is the emulator's own stand-in, not the
// application's script, and does what the tracking code asks of it:
//
//   <script data-host="{public_url}" data-dnt="false" src="{public_url}/js/script.js"
//           id="ZwSg9rf6GA" async defer></script>
//
// It finds its element by the fixed id, and posts the pageview to
// {data-host}/api/event as a form: page (the full URL of the page), referrer
// and screen_resolution ("1280x720"). With data-dnt="true" and a browser
// that asks not to be tracked (navigator.doNotTrack or window.doNotTrack is
// "1"), it sends nothing. The form is application/x-www-form-urlencoded, a
// CORS simple request, so a browser sends it to the installation's origin
// without a preflight; the answer is never read.
//
// When it is done it sets data-tracked on its element, for tests and for
// whoever looks at the page: "sent" (the browser took the request), "dnt"
// (Do Not Track honoured, nothing sent) or "failed" (no data-host, or the
// browser refused to send).
(function () {
  "use strict";

  var el = document.getElementById("ZwSg9rf6GA");
  if (!el) {
    return;
  }
  var done = function (state) {
    el.setAttribute("data-tracked", state);
  };

  var host = (el.getAttribute("data-host") || "").replace(/\/+$/, "");
  if (!host) {
    done("failed");
    return;
  }

  var dnt = navigator.doNotTrack || window.doNotTrack;
  if (el.getAttribute("data-dnt") === "true" && (dnt === "1" || dnt === "yes")) {
    done("dnt");
    return;
  }

  var url = host + "/api/event";
  var form = new URLSearchParams();
  form.append("page", window.location.href);
  form.append("referrer", document.referrer || "");
  form.append("screen_resolution", window.screen.width + "x" + window.screen.height);

  // sendBeacon sends URLSearchParams as
  // application/x-www-form-urlencoded;charset=UTF-8 and survives the page
  // being left; fetch in no-cors mode is the fallback.
  var queued = false;
  try {
    queued = typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url, form);
  } catch (e) {
    queued = false;
  }
  if (queued) {
    done("sent");
    return;
  }
  if (typeof window.fetch !== "function") {
    done("failed");
    return;
  }
  window.fetch(url, {
    method: "POST",
    body: form,
    mode: "no-cors",
    credentials: "omit",
    keepalive: true
  }).then(function () {
    done("sent");
  }, function () {
    done("failed");
  });
})();
