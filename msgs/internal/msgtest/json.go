package msgtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/navnode/navnode/msgs"
)

// ToJSON writes m as JSON keyed by ROS field names. int64 and uint64 values
// are decimal strings, which JSON numbers cannot carry exactly; byte arrays
// are arrays of numbers; floats use the shortest text that reads back to the
// same float64.
func ToJSON(m msgs.Message) []byte {
	var b bytes.Buffer
	writeJSON(&b, reflect.ValueOf(m).Elem())
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int8, reflect.Int16, reflect.Int32:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Int64:
		fmt.Fprintf(b, `"%d"`, v.Int())
	case reflect.Uint64:
		fmt.Fprintf(b, `"%d"`, v.Uint())
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.String:
		s, _ := json.Marshal(v.String())
		b.Write(s)
	case reflect.Array, reflect.Slice:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, v.Index(i))
		}
		b.WriteByte(']')
	case reflect.Struct:
		b.WriteByte('{')
		for i := range v.NumField() {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "%q:", parseTag(v.Type().Field(i).Tag.Get("ros")).name)
			writeJSON(b, v.Field(i))
		}
		b.WriteByte('}')
	default:
		panic("msgtest: unexpected kind " + v.Kind().String())
	}
}

// FromJSON sets m from JSON in the form ToJSON writes. Every field must be
// present; int64 and uint64 may be strings or numbers.
func FromJSON(data []byte, m msgs.Message) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return err
	}
	return readJSON(reflect.ValueOf(m).Elem(), x, m.MsgType().Name)
}

func readJSON(v reflect.Value, x any, path string) error {
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return fmt.Errorf("%s: want bool, got %T", path, x)
		}
		v.SetBool(b)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(numberText(x), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v.SetInt(n)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(numberText(x), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(numberText(x), 64)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v.SetFloat(f)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return fmt.Errorf("%s: want string, got %T", path, x)
		}
		v.SetString(s)
	case reflect.Array, reflect.Slice:
		return readList(v, x, path)
	case reflect.Struct:
		obj, ok := x.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want object, got %T", path, x)
		}
		for i := range v.NumField() {
			name := parseTag(v.Type().Field(i).Tag.Get("ros")).name
			fx, ok := obj[name]
			if !ok {
				return fmt.Errorf("%s: missing field %s", path, name)
			}
			if err := readJSON(v.Field(i), fx, path+"."+name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: unexpected kind %s", path, v.Kind())
	}
	return nil
}

func readList(v reflect.Value, x any, path string) error {
	list, ok := x.([]any)
	if !ok {
		return fmt.Errorf("%s: want array, got %T", path, x)
	}
	if v.Kind() == reflect.Array && len(list) != v.Len() {
		return fmt.Errorf("%s: want %d elements, got %d", path, v.Len(), len(list))
	}
	if v.Kind() == reflect.Slice {
		if len(list) == 0 {
			v.SetZero()
			return nil
		}
		v.Set(reflect.MakeSlice(v.Type(), len(list), len(list)))
	}
	for i, item := range list {
		if err := readJSON(v.Index(i), item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

func numberText(x any) string {
	switch x := x.(type) {
	case json.Number:
		return x.String()
	case string:
		return x
	}
	return fmt.Sprint(x)
}
