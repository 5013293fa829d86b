package render

// All is the whole catalog, registered parts included, for the tests that
// check every message (package render_test, which imports the packages
// that register).
var All = all
