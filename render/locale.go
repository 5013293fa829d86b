package render

import "strings"

// localeVars are the environment variables that choose the language of
// messages, in POSIX's order of precedence: the first one set to a
// non-empty value decides.
var localeVars = []string{"LC_ALL", "LC_MESSAGES", "LANG"}

// LangFromEnv is the language the locale asks for: Japanese when the
// first set of LC_ALL, LC_MESSAGES, LANG starts with "ja" (ja_JP.UTF-8),
// English otherwise (C, POSIX, en_US.UTF-8, none set). getenv is
// os.Getenv, passed in so that render reads nothing itself.
func LangFromEnv(getenv func(string) string) Lang {
	for _, v := range localeVars {
		if val := getenv(v); val != "" {
			if strings.HasPrefix(val, "ja") {
				return Japanese
			}
			return English
		}
	}
	return English
}
