package ledger

import (
	"reflect"
	"testing"
)

// byEmployee gives each employee his rows oldest first, whether the read
// returned each employee's rows together (as latestSQL's lateral join
// does) or apart.
func TestByEmployeeOrdersEachEmployeesRowsOldestFirst(t *testing.T) {
	row := func(funcionarioID, id int64) Row { return Row{ID: id, FuncionarioID: funcionarioID} }
	ids := func(rows []Row) []int64 {
		out := []int64{}
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return out
	}
	want := map[int64][]int64{10: {1, 2, 3}, 20: {4}, 30: {5, 6}}
	for name, latest := range map[string][]Row{
		"together": {row(10, 3), row(10, 2), row(10, 1), row(20, 4), row(30, 6), row(30, 5)},
		"apart":    {row(30, 6), row(10, 3), row(10, 2), row(20, 4), row(30, 5), row(10, 1)},
	} {
		got := map[int64][]int64{}
		for k, rows := range byEmployee(latest) {
			f := k.funcionarioID
			got[f] = ids(rows)
			if cap(rows) != len(rows) {
				t.Errorf("%s: employee %d's rows have room for %d more: an append would overwrite the next employee's",
					name, f, cap(rows)-len(rows))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if got := byEmployee(nil); len(got) != 0 {
		t.Errorf("no rows: %v", got)
	}
}
