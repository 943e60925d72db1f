// The tracking script of the phpAnalytics API emulator, served at
// {base_url}/js/script.js. It is the emulator's own, written for it, and
// does what the application's script does for the tracking code
//
//   <script data-host="{public_url}" data-dnt="false" src="{public_url}/js/script.js"
//           id="ZwSg9rf6GA" async defer></script>
//
// It finds its element by the fixed id and reads data-host. Unless Do Not
// Track stops it, it posts each pageview to {data-host}/api/event with
// XMLHttpRequest, as JSON (Content-Type: application/json; charset=utf-8,
// so a browser on another origin sends a CORS preflight first):
//
//   {"referrer": document.referrer, "page": the address without its
//    #fragment, "screen_resolution": "1280x720"}
//
// once when the page loads, again after every history.pushState (with the
// address before the change as the referrer) and on every popstate. It
// offers window.pa.track(event) for a custom event (name, optional value and
// unit), sent as {"event": {...}, "page": ...}. It never reads an answer.
//
// Do Not Track: with data-dnt="true", a browser whose navigator.doNotTrack
// has any non-empty value ("1", but also "0" and "unspecified") is sent
// nothing at all, so such visitors are never counted; data-dnt="false"
// ignores it.
//
// For tests and for whoever looks at the page, it sets on its element
// data-tracked ("sent" once the first pageview is handed to the browser,
// "dnt" when Do Not Track stopped it, "failed" without data-host or when the
// browser refused the request) and data-sent, the number of requests handed
// to the browser so far.
(function () {
  "use strict";

  var el = document.getElementById("ZwSg9rf6GA");
  if (!el) {
    return;
  }
  var mark = function (state) {
    el.setAttribute("data-tracked", state);
  };

  var host = (el.getAttribute("data-host") || "").replace(/\/+$/, "");
  if (!host) {
    mark("failed");
    return;
  }

  var pa = {
    track: function () {}
  };
  window.pa = pa;

  if (el.getAttribute("data-dnt") === "true" && navigator.doNotTrack) {
    mark("dnt");
    return;
  }

  var sent = 0;
  var send = function (body) {
    try {
      var xhr = new XMLHttpRequest();
      xhr.open("POST", host + "/api/event", true);
      xhr.setRequestHeader("Content-Type", "application/json; charset=utf-8");
      xhr.send(JSON.stringify(body));
    } catch (e) {
      return false;
    }
    sent++;
    el.setAttribute("data-sent", String(sent));
    return true;
  };

  // address is the page's address without its #fragment.
  var address = function () {
    return window.location.href.split("#")[0];
  };
  var current = address();

  var pageview = function (referrer) {
    current = address();
    return send({
      referrer: referrer,
      page: current,
      screen_resolution: window.screen.width + "x" + window.screen.height
    });
  };

  pa.track = function (event) {
    send({event: event, page: address()});
  };

  var pushState = window.history.pushState;
  window.history.pushState = function () {
    var before = current;
    var result = pushState.apply(window.history, arguments);
    pageview(before);
    return result;
  };
  window.addEventListener("popstate", function () {
    pageview(current);
  });

  mark(pageview(document.referrer || "") ? "sent" : "failed");
})();
