package apprecord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Normaliser turns one server's answers into the recorded form. It numbers
// the websites the sequence creates (stores answered 201) in order, so that
// a path's "#k" and an answer's id mean the same website on every server.
type Normaliser struct {
	ids     []string       // the server's id of website k
	numbers map[string]int // the server's id -> k
}

// NewNormaliser starts a sequence with no website created.
func NewNormaliser() *Normaliser { return &Normaliser{numbers: map[string]int{}} }

// Created is how many websites the sequence has created.
func (n *Normaliser) Created() int { return len(n.ids) }

var placeholder = regexp.MustCompile(`#([0-9]+)`)

// Path is a call's path with each "#k" replaced by this server's id of
// website k. A "#k" past the websites created is an error.
func (n *Normaliser) Path(p string) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(p, func(m string) string {
		k, _ := strconv.Atoi(m[1:])
		if k >= len(n.ids) {
			err = fmt.Errorf("apprecord: %s names website %s, but only %d were created", p, m, len(n.ids))
			return m
		}
		return n.ids[k]
	})
	return out, err
}

// Request builds the request of c against base (the installation's URL,
// without /api/v1), with the key as a Bearer token.
func (n *Normaliser) Request(ctx context.Context, base, key string, c Call) (*http.Request, error) {
	p, err := n.Path(c.Path)
	if err != nil {
		return nil, err
	}
	u := strings.TrimSuffix(base, "/") + "/api/v1" + p
	if c.Query != nil {
		u += "?" + encode(c.Query)
	}
	var body *strings.Reader
	if c.Form != nil {
		body = strings.NewReader(encode(c.Form))
	}
	var req *http.Request
	if body != nil {
		req, err = http.NewRequestWithContext(ctx, c.Method, u, body)
	} else {
		req, err = http.NewRequestWithContext(ctx, c.Method, u, http.NoBody)
	}
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	return req, nil
}

// encode is url.Values.Encode keeping the pairs' order.
func encode(ps Pairs) string {
	parts := make([]string, len(ps))
	for i, kv := range ps {
		parts[i] = url.QueryEscape(kv.Key) + "=" + url.QueryEscape(kv.Value)
	}
	return strings.Join(parts, "&")
}

// Answer normalises the answer (status and raw body) to the call c, and
// numbers the website a store answered 201 created. The body must be JSON,
// and every id and website_id in it a JSON integer (or null): "#k" stands
// for the number, so an id sent as a string ("7") would otherwise look the
// same as the application's.
func (n *Normaliser) Answer(c Call, status int, body []byte) (json.RawMessage, error) {
	v, err := decodeOne(body)
	if err != nil {
		return nil, fmt.Errorf("apprecord: %s %s: the answer is no JSON: %w", c.Method, c.Path, err)
	}
	if err := checkIDs(v); err != nil {
		return nil, fmt.Errorf("apprecord: %s %s: %w", c.Method, c.Path, err)
	}
	if c.Method == http.MethodPost && c.Path == "/websites" && status == http.StatusCreated {
		o, _ := v.(map[string]any)
		d, _ := o["data"].(map[string]any)
		id, ok := d["id"].(json.Number)
		if !ok {
			return nil, fmt.Errorf("apprecord: %s %s answered 201 without data.id", c.Method, c.Path)
		}
		s := id.String()
		n.numbers[s] = len(n.ids)
		n.ids = append(n.ids, s)
	}
	return marshal(n.normalise(v))
}

// integerRE is a JSON number without fraction or exponent.
var integerRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// checkIDs fails on the first id or website_id in v that is neither a JSON
// integer nor null.
func checkIDs(v any) error {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "id" || k == "website_id" {
				if num, ok := e.(json.Number); e != nil && (!ok || !integerRE.MatchString(num.String())) {
					raw, _ := json.Marshal(e)
					return fmt.Errorf("%s is %s, not a JSON integer", k, raw)
				}
				continue
			}
			if err := checkIDs(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := checkIDs(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// normalise drops created_at, updated_at and links, numbers ids and reduces
// meta; encoding/json then sorts the keys.
func (n *Normaliser) normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch k {
			case "created_at", "updated_at", "links":
				continue
			case "id", "website_id":
				out[k] = n.number(e)
			case "meta":
				out[k] = reduceMeta(e)
			default:
				out[k] = n.normalise(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.normalise(e)
		}
		return out
	default:
		return v
	}
}

// number is "#k" for website k of the sequence, "#?" for any other id
// (checkIDs let only integers and null through).
func (n *Normaliser) number(id any) any {
	if id == nil {
		return nil
	}
	if k, ok := n.numbers[fmt.Sprint(id)]; ok {
		return "#" + strconv.Itoa(k)
	}
	return "#?"
}

// metaKeys are what the recordings keep of a paginator's meta.
var metaKeys = []string{"current_page", "last_page", "per_page", "total", "from", "to"}

func reduceMeta(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for _, k := range metaKeys {
		if e, ok := m[k]; ok {
			out[k] = e
		}
	}
	return out
}

// Canonical re-encodes a normalised body (as recorded or as Answer gives
// it) with sorted keys and no white space, for comparison.
func Canonical(body json.RawMessage) (string, error) {
	v, err := decodeOne(body)
	if err != nil {
		return "", err
	}
	b, err := marshal(v)
	return string(b), err
}

// decodeOne decodes body, which must hold one JSON value and nothing but
// white space after it: a client's json.Unmarshal refuses anything more (a
// PHP warning printed after the JSON, a second document).
func decodeOne(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("bytes follow the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}
