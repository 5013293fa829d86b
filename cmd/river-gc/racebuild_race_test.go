//go:build linux && race

package main

// raceBuild: the tests run under the race detector (go test -race), and
// buildBinary builds river-gc with it too.
const raceBuild = true
