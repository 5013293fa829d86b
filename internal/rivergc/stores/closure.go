package stores

import "github.com/plangate-gc/plangate-gc/skill"

// Parse reads the single source of the entry scope scope (SPEC D2):
// the Riverbed index of memory-entries (an error when it is not one), or
// the eval ledger.
func Parse(scope skill.Scope, path string, data []byte, now int64) (Store, error) {
	if scope == skill.ScopeMemoryEntries {
		return ParseMemory(path, data, now)
	}
	return ParseLedger(path, data), nil
}

// CloseGuards returns in's hard guards with every entry a kept one refers
// to (SPEC D3): it judges in until no removed entry is referred to by a
// kept one. The store's live entries are in's entries marked Guarded (the
// caller's part), not guards. A judgement that fails is left for the
// caller, who judges again and reports it.
func (st Store) CloseGuards(in skill.Input) []string {
	guards := in.HardGuards
	// Each round guards at least one more entry, so len(entries)+1
	// rounds always suffice.
	for range len(st.Entries) + 1 {
		if !st.Refers() {
			break // guarding more is never needed
		}
		in.HardGuards = guards
		res, err := skill.Judge(in)
		if err != nil || !res.Evaluated {
			break
		}
		removed := make(map[string]bool, len(res.Removed))
		for _, d := range res.Removed {
			removed[d.Path] = true
		}
		refs := st.Referenced(removed)
		if len(refs) == 0 {
			break
		}
		guards = append(guards, refs...)
	}
	return guards
}
