//go:build linux

package main

import (
	"os"
	"strings"

	"github.com/plangate-gc/plangate-gc/render"
)

// localeVars are the environment variables that choose the language of
// messages, in POSIX's order of precedence (LC_ALL over LC_MESSAGES over
// LANG): the first one set to a non-empty value decides.
var localeVars = []string{"LC_ALL", "LC_MESSAGES", "LANG"}

// envLang is the language the environment asks for when --lang is
// absent: Japanese when the first set locale variable starts with "ja"
// (ja_JP.UTF-8, ja), English otherwise (C, POSIX, en_US.UTF-8, unset).
func envLang(getenv func(string) string) render.Lang {
	for _, v := range localeVars {
		if val := getenv(v); val != "" {
			if strings.HasPrefix(val, "ja") {
				return render.Japanese
			}
			return render.English
		}
	}
	return render.English
}

// langArg is the --lang given in args, read before anything else is
// parsed, so that even an error in the flags is worded in it (SPEC B5);
// the environment's language (envLang) when absent or not one of the
// languages.
func langArg(args []string) render.Lang {
	lang := envLang(os.Getenv)
	for i, a := range args {
		if a == "--" {
			break
		}
		v, ok := strings.CutPrefix(a, "--lang=")
		if !ok && a == "--lang" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && (v == string(render.Japanese) || v == string(render.English)) {
			lang = render.Lang(v)
		}
	}
	return lang
}
