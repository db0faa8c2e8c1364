package yamlenc

import (
	"cmp"
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Go values are written as encoding/json writes them, without the JSON:
// structs by their json tags (embedded structs inlined, omitempty and
// omitzero honoured, fields sorted by name), maps with their keys sorted,
// []byte in base64, pointers and interfaces as what they point at, nil as
// null. A type that says how it is written goes by that: ToUnstructured,
// the Kubernetes API types' own form for an unstructured object (a
// metav1.Duration is its text, a zero metav1.Time null), or MarshalText.

// shape is how a resolved value is written.
type shape uint8

const (
	scalarShape shape = iota
	mappingShape
	sequenceShape
)

func shapeOf(v reflect.Value) shape {
	switch v.Kind() {
	case reflect.Struct:
		return mappingShape
	case reflect.Map:
		if !v.IsNil() {
			return mappingShape
		}
	case reflect.Slice:
		if !v.IsNil() && !isBytes(v.Type()) {
			return sequenceShape
		}
	case reflect.Array:
		return sequenceShape
	}
	return scalarShape
}

// isBytes reports whether t is written as base64: a slice of a byte type
// that says nothing of how it is written itself.
func isBytes(t reflect.Type) bool {
	return t.Elem().Kind() == reflect.Uint8 && infoOf(t.Elem()).method == noMethod
}

// unstructured is the method of k8s.io/apimachinery's
// value.UnstructuredConverter.
type unstructured interface{ ToUnstructured() any }

// jsonMarshaler is json.Marshaler.
type jsonMarshaler interface{ MarshalJSON() ([]byte, error) }

type isZeroer interface{ IsZero() bool }

var (
	unstructuredType  = reflect.TypeFor[unstructured]()
	jsonMarshalerType = reflect.TypeFor[jsonMarshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[isZeroer]()
)

// method is the way a type says how it is written.
type method uint8

const (
	noMethod method = iota
	unstructuredMethod
	jsonMethod // unsupported: JSON is what this package does not go through
	textMethod
)

// typeInfo is what the encoder needs of a type, worked out once.
type typeInfo struct {
	method method
	// viaAddr: method has a pointer receiver, and only an addressable
	// value has it (as in encoding/json).
	viaAddr bool
	// isZero: the type has the IsZero method omitzero calls.
	isZero bool
	fields []field // a struct's, sorted by name
}

// field is a struct field as encoding/json names it.
type field struct {
	name      string
	index     []int // through embedded structs
	omitEmpty bool
	omitZero  bool
}

var typeInfos sync.Map // reflect.Type -> *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{}
	for _, m := range []struct {
		iface reflect.Type
		m     method
	}{{unstructuredType, unstructuredMethod}, {jsonMarshalerType, jsonMethod}, {textMarshalerType, textMethod}} {
		if has, viaAddr := implements(t, m.iface); has {
			ti.method, ti.viaAddr = m.m, viaAddr
			break
		}
	}
	ti.isZero, _ = implements(t, isZeroerType)
	if t.Kind() == reflect.Struct {
		ti.fields = structFields(t)
	}
	v, _ := typeInfos.LoadOrStore(t, ti)
	return v.(*typeInfo)
}

// implements reports whether t, or a pointer to an addressable t
// (viaAddr), implements iface.
func implements(t, iface reflect.Type) (has, viaAddr bool) {
	if t.Implements(iface) {
		return true, false
	}
	return t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface), true
}

// structFields lists the fields encoding/json writes of struct type t:
// those of embedded structs without a json name inlined and, of the
// fields of one name, the shallowest, a tagged one before untagged ones as
// deep; two as good as each other are both left out.
func structFields(t reflect.Type) []field {
	type candidate struct {
		field
		tagged bool
	}
	var all []candidate
	var walk func(t reflect.Type, index []int, seen []reflect.Type)
	walk = func(t reflect.Type, index []int, seen []reflect.Type) {
		if slices.Contains(seen, t) {
			return // embedded through a pointer to itself
		}
		seen = append(seen, t)
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			index := append(index[:len(index):len(index)], i)
			ft := sf.Type
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				walk(ft, index, seen)
				continue
			}
			if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
				continue
			}
			c := candidate{field: field{name: cmp.Or(name, sf.Name), index: index}, tagged: name != ""}
			for o := range strings.SplitSeq(opts, ",") {
				switch o {
				case "omitempty":
					c.omitEmpty = true
				case "omitzero":
					c.omitZero = true
				case "string":
					panic(fmt.Sprintf("yamlenc: %s.%s: the json option string is not supported", t, sf.Name))
				}
			}
			all = append(all, c)
		}
	}
	walk(t, nil, nil)
	slices.SortStableFunc(all, func(a, b candidate) int {
		if c := cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(len(a.index), len(b.index))); c != 0 || a.tagged == b.tagged {
			return c
		}
		if a.tagged {
			return -1
		}
		return 1
	})
	var out []field
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		if g := all[i:j]; len(g) == 1 || len(g[1].index) > len(g[0].index) || g[0].tagged && !g[1].tagged {
			out = append(out, g[0].field)
		}
		i = j
	}
	return out
}

// resolve follows interfaces, pointers and the methods that say how a
// value is written to the value that is written; the invalid Value for
// null.
func resolve(v reflect.Value) reflect.Value {
	for v.IsValid() {
		switch v.Kind() {
		case reflect.Interface:
			v = v.Elem()
			continue
		case reflect.Pointer:
			if v.IsNil() {
				return reflect.Value{}
			}
		}
		ti := infoOf(v.Type())
		if ti.method != noMethod && (!ti.viaAddr || v.CanAddr()) {
			m := v
			if v.Kind() != reflect.Pointer && v.CanAddr() {
				m = v.Addr() // a pointer's Interface copies nothing
			}
			switch ti.method {
			case unstructuredMethod:
				v = reflect.ValueOf(m.Interface().(unstructured).ToUnstructured())
				continue
			case textMethod:
				text, err := m.Interface().(encoding.TextMarshaler).MarshalText()
				if err != nil {
					panic(fmt.Sprintf("yamlenc: %s: %v", v.Type(), err))
				}
				return reflect.ValueOf(string(text))
			default:
				panic(fmt.Sprintf("yamlenc: %s gives its encoding as JSON only", v.Type()))
			}
		}
		if v.Kind() != reflect.Pointer {
			return v
		}
		v = v.Elem()
	}
	return v
}

// fieldOf returns the field of struct v at index; ok is false when an
// embedded pointer on the way is nil.
func fieldOf(v reflect.Value, index []int) (_ reflect.Value, ok bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is what omitempty leaves out, as in encoding/json.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// isZero is what omitzero leaves out: by the value's IsZero method when it
// has one, as in encoding/json.
func isZero(v reflect.Value) bool {
	switch k := v.Kind(); {
	case !infoOf(v.Type()).isZero:
		return v.IsZero()
	case k == reflect.Pointer || k == reflect.Interface:
		if v.IsNil() {
			return true
		}
	case v.CanAddr():
		v = v.Addr() // a pointer's Interface copies nothing
	default:
		boxed := reflect.New(v.Type())
		boxed.Elem().Set(v)
		v = boxed
	}
	return v.Interface().(isZeroer).IsZero()
}

// keyString is a map key as encoding/json writes it.
func keyString(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return k.String()
	}
	if infoOf(k.Type()).method == textMethod {
		return resolve(k).String()
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10)
	}
	panic(fmt.Sprintf("yamlenc: unsupported map key type %s", k.Type()))
}
