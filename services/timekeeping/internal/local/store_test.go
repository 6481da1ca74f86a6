package local

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

var now = time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC)

// near is about 56 m from loja.
const near = "-23.5510, -46.6333"

var (
	loja     = input{Nome: "Loja Centro", Latitude: ptr(-23.5505), Longitude: ptr(-46.6333), RaioMetros: 100}
	deposito = input{Nome: "Depósito", Latitude: ptr(-23.6), Longitude: ptr(-46.7), RaioMetros: 100}
)

func ptr(f float64) *float64 { return &f }

func newDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return dbtest.New(t, os.DirFS("../../migrations"))
}

func geofence(t *testing.T, s *Store, empresaID int64, pos string) *registro.Geofence {
	t.Helper()
	g, err := s.Geofence(t.Context(), empresaID, pos)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func create(t *testing.T, s *Store, empresaID int64, in input) int64 {
	t.Helper()
	l, err := s.Create(t.Context(), empresaID, in, now)
	if err != nil {
		t.Fatal(err)
	}
	return l.ID
}

// insertBehind adds a place without going through s, as another replica
// would.
func insertBehind(t *testing.T, db *pgxpool.Pool, empresaID int64, in input) int64 {
	t.Helper()
	other := NewStore(db, 0)
	return create(t, other, empresaID, in)
}

// A place created or removed through the store counts from the next check,
// though the company's places are cached.
func TestGeofenceSeesThisStoresChangesAtOnce(t *testing.T) {
	s := NewStore(newDB(t), time.Hour)
	if g := geofence(t, s, 1, near); g != nil {
		t.Fatalf("no places: %+v", g)
	}
	lojaID := create(t, s, 1, loja)
	if g := geofence(t, s, 1, near); g == nil || g.LocalTrabalhoID != lojaID || g.Fora || g.DistanciaMetros != 56 {
		t.Fatalf("after Create: %+v", g)
	}
	depositoID := create(t, s, 1, deposito)
	if err := s.Remove(t.Context(), 1, lojaID, now); err != nil {
		t.Fatal(err)
	}
	if g := geofence(t, s, 1, near); g == nil || g.LocalTrabalhoID != depositoID || !g.Fora {
		t.Fatalf("after removing the Loja: %+v, want outside the Depósito", g)
	}
	// A failed Remove changes nothing, and another company is apart.
	if err := s.Remove(t.Context(), 2, depositoID, now); err == nil {
		t.Fatal("removed another company's place")
	}
	if g := geofence(t, s, 2, near); g != nil {
		t.Fatalf("company 2: %+v", g)
	}
}

// Places changed elsewhere (another replica) are seen when the entry
// expires, at once without a cache, and the list route reads them always.
func TestGeofenceSeesOtherChangesAfterTheTTL(t *testing.T) {
	db := newDB(t)
	const ttl = 100 * time.Millisecond
	cached, uncached, forever := NewStore(db, ttl), NewStore(db, 0), NewStore(db, time.Hour)
	for _, s := range []*Store{cached, uncached, forever} {
		if g := geofence(t, s, 1, near); g != nil {
			t.Fatalf("no places: %+v", g)
		}
	}
	lojaID := insertBehind(t, db, 1, loja)
	if g := geofence(t, uncached, 1, near); g == nil || g.LocalTrabalhoID != lojaID {
		t.Fatalf("without a cache: %+v", g)
	}
	if g := geofence(t, forever, 1, near); g != nil {
		t.Fatalf("within the TTL: %+v, want the cached (empty) places", g)
	}
	if ls, err := forever.Ativos(t.Context(), 1); err != nil || len(ls) != 1 {
		t.Fatalf("list: %v, %v", ls, err)
	}
	time.Sleep(2 * ttl)
	if g := geofence(t, cached, 1, near); g == nil || g.LocalTrabalhoID != lojaID {
		t.Fatalf("after the TTL: %+v", g)
	}
}

// blockingLoad returns the places' current version (as one place's ID),
// each load waiting until hold is closed; loads are counted.
type blockingLoad struct {
	loads   atomic.Int32
	version atomic.Int64
	hold    chan struct{}
	arrived chan struct{}
}

func newBlockingLoad() *blockingLoad {
	return &blockingLoad{hold: make(chan struct{}), arrived: make(chan struct{}, 100)}
}

func (b *blockingLoad) load(ctx context.Context, empresaID int64) ([]Local, error) {
	b.loads.Add(1)
	v := b.version.Load()
	b.arrived <- struct{}{}
	<-b.hold
	return []Local{{ID: v}}, nil
}

// Concurrent misses for one company make one load, whose list they all
// get.
func TestPlacesCacheConcurrentMissesLoadOnce(t *testing.T) {
	c := newPlacesCache(time.Hour)
	b := newBlockingLoad()
	const n = 10
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ls, err := c.get(context.Background(), 1, b.load); err != nil || len(ls) != 1 {
				t.Errorf("%v, %v", ls, err)
			}
		}()
	}
	<-b.arrived
	// Let the others reach the shared load; any that come after it ended
	// find the list in the cache, so the count is one either way.
	time.Sleep(20 * time.Millisecond)
	close(b.hold)
	wg.Wait()
	if n := b.loads.Load(); n != 1 {
		t.Fatalf("%d loads for concurrent misses, want 1", n)
	}
}

// A change while a load is under way keeps that load's list, read before
// the change, out of the cache; a failed load is not kept.
func TestPlacesCacheForgetsAChangeDuringALoad(t *testing.T) {
	c := newPlacesCache(time.Hour)
	b := newBlockingLoad()
	first := make(chan []Local, 1)
	go func() {
		ls, _ := c.get(context.Background(), 1, b.load)
		first <- ls
	}()
	<-b.arrived
	b.version.Store(1)
	c.forget(1) // the places changed while the load ran
	close(b.hold)
	if ls := <-first; len(ls) != 1 || ls[0].ID != 0 {
		t.Fatalf("the load under way: %v, want version 0", ls)
	}
	for range 2 {
		ls, err := c.get(context.Background(), 1, b.load)
		if err != nil || len(ls) != 1 || ls[0].ID != 1 {
			t.Fatalf("after the change: %v, %v; want version 1", ls, err)
		}
	}
	if n := b.loads.Load(); n != 2 {
		t.Fatalf("%d loads, want 2 (one before the change, one after)", n)
	}

	c.forget(1)
	var failed atomic.Int32
	fail := func(context.Context, int64) ([]Local, error) { failed.Add(1); return nil, errors.New("down") }
	for range 2 {
		if _, err := c.get(context.Background(), 1, fail); err == nil {
			t.Fatal("no error")
		}
	}
	if n := failed.Load(); n != 2 {
		t.Fatalf("%d loads for two misses after failures, want 2", n)
	}
}
