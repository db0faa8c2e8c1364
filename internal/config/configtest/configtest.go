package configtest

import (
	"reflect"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
)

// Field is a YAML path of config.Config and the Go type of the field there.
type Field struct {
	Path string
	Type reflect.Type
}

// Fields lists every path of config.Config as the field index writes it, in
// declaration order: dotted json keys, embedded structs flattened, "[]"
// for the elements of a list and ".*" for the values of a map.
func Fields() []Field {
	var out []Field
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for _, f := range fieldsOf(t) {
			p := strings.TrimPrefix(prefix+"."+f.key, ".")
			out = append(out, Field{Path: p, Type: f.Type})
			switch ft := deref(f.Type); ft.Kind() {
			case reflect.Struct:
				walk(p, ft)
			case reflect.Slice:
				if et := deref(ft.Elem()); et.Kind() == reflect.Struct {
					walk(p+"[]", et)
				}
			case reflect.Map:
				if et := deref(ft.Elem()); et.Kind() == reflect.Struct {
					walk(p+".*", et)
				}
			}
		}
	}
	walk("", reflect.TypeFor[config.Config]())
	return out
}

// Value returns the value of the field at path p of c (the element of a
// pointer) and whether it is present: false when a nil pointer lies on the
// way or is the field itself, and when p reaches into a list or a map or
// names no field.
func Value(c *config.Config, p string) (any, bool) {
	v := reflect.ValueOf(c).Elem()
	for _, key := range strings.Split(p, ".") {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return nil, false
		}
		f, ok := field(v.Type(), key)
		if !ok {
			return nil, false
		}
		fv, err := v.FieldByIndexErr(f.Index)
		if err != nil { // a nil embedded pointer
			return nil, false
		}
		v = fv
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, false
		}
		v = v.Elem()
	}
	return v.Interface(), true
}

// jsonField is a field of a struct with its YAML key and its index from
// the struct, through embedded structs.
type jsonField struct {
	reflect.StructField
	key string
}

// fieldsOf lists the fields of struct t by YAML key, as the decoder sees
// them: embedded structs without a key flattened, "-" and unexported
// fields left out.
func fieldsOf(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			for _, ef := range fieldsOf(deref(f.Type)) {
				ef.Index = append([]int{i}, ef.Index...)
				out = append(out, ef)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{StructField: f, key: name})
	}
	return out
}

func field(t reflect.Type, key string) (jsonField, bool) {
	for _, f := range fieldsOf(t) {
		if f.key == key {
			return f, true
		}
	}
	return jsonField{}, false
}

func deref(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}
