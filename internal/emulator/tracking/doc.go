// Package tracking emulates what an installation of the application shows
// a website's visitors' browsers, beside the Website API that package
// emulator emulates: the tracking endpoint POST /api/event (Record: which
// website a pageview or custom event is for, the website's exclusions of
// addresses, bots and query parameters, the PHP form and JSON quirks of
// its input, what a visit records), the user agent's browser, OS and
// device and who is a bot (WhichBrowser's rules), the tracking script at
// /js/script.js (ServeScript) and the CORS answers on api/* paths. The
// emulator routes requests to it and gives it its state through Store;
// README.md describes the application's behaviour it copies.
package tracking
