package gate

// skipContainer consumes a too-deep container without building it and
// without recursion, so that a megabyte of '[' cannot exhaust the stack;
// it still checks the syntax, because the next document starts after it.
func (p *parser) skipContainer() error {
	p.discard++ // nothing in it is built
	defer func() { p.discard-- }()
	var stack []byte
	const (
		wantValue = iota
		wantKey
		afterValue
	)
	state := wantValue
	for {
		switch state {
		case wantValue:
			c, ok, err := p.skipSpace()
			if err != nil {
				return err
			}
			if !ok {
				return p.fail("unexpected end of input")
			}
			switch c {
			case '{', '[':
				p.read() //nolint:errcheck
				stack = append(stack, c)
				next, _, err := p.skipSpace()
				if err != nil {
					return err
				}
				closer := byte('}')
				if c == '[' {
					closer = ']'
				}
				switch {
				case next == closer:
					p.read() //nolint:errcheck
					stack = stack[:len(stack)-1]
					state = afterValue
				case c == '{':
					state = wantKey
				}
				continue
			case '"':
				if _, err := p.str(); err != nil {
					return err
				}
			default:
				if c == '-' || (c >= '0' && c <= '9') {
					if _, err := p.number(); err != nil {
						return err
					}
				} else if _, err := p.literal(); err != nil {
					return err
				}
			}
			state = afterValue
		case wantKey:
			c, ok, err := p.skipSpace()
			if err != nil {
				return err
			}
			if !ok || c != '"' {
				return p.fail("expected a string object key")
			}
			if _, err := p.str(); err != nil {
				return err
			}
			if err := p.expect(':'); err != nil {
				return err
			}
			state = wantValue
		case afterValue:
			if len(stack) == 0 {
				return nil
			}
			c, err := p.read()
			if err != nil {
				return err
			}
			if c, err = p.afterSpace(c); err != nil {
				return err
			}
			top := stack[len(stack)-1]
			switch {
			case c == ',' && top == '{':
				state = wantKey
			case c == ',' && top == '[':
				state = wantValue
			case (c == '}' && top == '{') || (c == ']' && top == '['):
				stack = stack[:len(stack)-1]
			default:
				return p.fail("expected ',' or the end of a container")
			}
		}
	}
}
