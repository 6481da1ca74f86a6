package tokens

import "context"

// Issuer hands out the pair a login answers with.
type Issuer struct {
	Access  *Signer
	Refresh *RefreshStore
}

// Pair is an access token and its refresh token.
type Pair struct {
	Access  string
	Refresh string
}

// Issue signs an access token and stores a new refresh token for id.
func (i *Issuer) Issue(ctx context.Context, id Identity) (Pair, error) {
	// The session first: the access token names it (sid).
	refresh, err := i.Refresh.Create(ctx, id)
	if err != nil {
		return Pair{}, err
	}
	id.SessionID = SessionOf(refresh)
	access, err := i.Access.Sign(id)
	if err != nil {
		return Pair{}, err
	}
	return Pair{Access: access, Refresh: refresh}, nil
}
