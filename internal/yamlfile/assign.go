package yamlfile

import (
	"fmt"
	"math"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/yamlenc"
)

// assign stores a node tree the walker has accepted for v's type into v, a
// zero value, exactly as encoding/json stored the tree written as JSON
// before (the tests keep that path as the reference: TestAssignMatchesJSON):
// null leaves a value unset, and every scalar is read as the walker read it.
// Its errors are the few the walker cannot see: a number out of its field's
// range.
func assign(file string, n *yaml.Node, v reflect.Value) *diag.Diag {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	fail := func(format string, args ...any) *diag.Diag {
		return &diag.Diag{File: file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
	}
	switch v.Kind() {
	case reflect.Struct:
		fields := fieldsOf(v.Type())
		for i := 0; i+1 < len(n.Content); i += 2 {
			if d := assign(file, n.Content[i+1], v.FieldByIndex(fields.index[n.Content[i].Value])); d != nil {
				return d
			}
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(v.Type(), len(n.Content)/2))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			e := reflect.New(v.Type().Elem()).Elem()
			if d := assign(file, n.Content[i+1], e); d != nil {
				return d
			}
			v.SetMapIndex(reflect.ValueOf(n.Content[i].Value).Convert(v.Type().Key()), e)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			if d := assign(file, item, s.Index(i)); d != nil {
				return d
			}
		}
		v.Set(s)
	case reflect.String:
		v.SetString(n.Value)
	case reflect.Bool:
		if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Tag == "!!bool" {
			if b, ok := yamlenc.BoolWord(n.Value); ok {
				v.SetBool(b)
				return nil
			}
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			return fail("%v", err)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int32, reflect.Int64:
		i, ok := plainDecimal(n)
		if !ok {
			if err := n.Decode(&i); err != nil {
				return fail("the number %s does not fit in its field (%s)", n.Value, v.Type())
			}
		}
		if v.OverflowInt(i) {
			return fail("the number %s does not fit in its field (%s)", n.Value, v.Type())
		}
		v.SetInt(i)
	case reflect.Float64:
		var f float64
		if i, ok := plainDecimal(n); ok {
			f = float64(i)
		} else if n.ShortTag() == "!!int" { // an integer is read as one, as before
			var i int64
			if err := n.Decode(&i); err != nil {
				return fail("the number %s does not fit in its field (%s)", n.Value, v.Type())
			}
			f = float64(i)
		} else if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fail("%s is not a finite number", n.Value)
		}
		v.SetFloat(f)
	default:
		return fail("internal error: no YAML rule for Go kind %s", v.Kind())
	}
	return nil
}

// plainDecimal reads a plain integer scalar in decimal as n.Decode would
// into an int64, without setting up a decoder (yamlenc.DecimalInt); ok is
// false for anything else.
func plainDecimal(n *yaml.Node) (int64, bool) {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || (n.Tag != "" && n.Tag != "!!int") {
		return 0, false
	}
	return yamlenc.DecimalInt(n.Value)
}
