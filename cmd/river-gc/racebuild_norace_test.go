//go:build linux && !race

package main

// raceBuild: the tests run without the race detector.
const raceBuild = false
