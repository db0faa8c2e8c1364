package generate

import (
	"sync"
	"testing"

	"github.com/opencenter-dev/opencenter/gen/model"
)

// root is the module root, seen from this package's directory.
const root = "../.."

var (
	modelOnce sync.Once
	sharedM   *model.Model
	modelErr  error
)

// loadModel loads internal/config once for the whole test binary: it is the
// slow part of generating (go/packages type-checks the config package).
func loadModel(t testing.TB) *model.Model {
	t.Helper()
	modelOnce.Do(func() { sharedM, modelErr = model.Load(root) })
	if modelErr != nil {
		t.Fatalf("loading the config model: %v", modelErr)
	}
	return sharedM
}

// freshModel returns a private copy of the shared model's field tree, for
// tests that change a field's tags. Generation itself never changes the
// model, so the other tests share one (and would catch a change: catalogs
// generated in any order must give the same bytes).
func freshModel(t testing.TB) *model.Model {
	t.Helper()
	m := *loadModel(t)
	m.Root = cloneNode(m.Root, nil)
	return &m
}

func cloneNode(n, parent *model.Node) *model.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Parent = parent
	c.Children = make([]*model.Node, len(n.Children))
	for i, ch := range n.Children {
		c.Children[i] = cloneNode(ch, &c)
	}
	c.Elem = cloneNode(n.Elem, &c)
	return &c
}
