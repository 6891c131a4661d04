// A choice of one person or bot that never loads the whole list (issue 32: 2,000 subjects made
// every screen with a picker fetch and render all of them). The list holds the first 50 by login
// that the server finds, and the chosen one; when there are more, a search box beside it asks
// the server for those matching what is typed.
import { useEffect, useState } from "preact/hooks";
import { get, query, type ListPage, type Subject } from "../api";
import { useLoad } from "./load";

const SHOWN = 50;

export function SubjectSelect({ label, name, value, onChange, empty, kind, enabledOnly = false, required = false,
  describe = (subject) => subject.login }: {
  label: string;
  name: string;
  value: string;
  /** The id chosen ("" for none). */
  onChange: (id: string) => void;
  /** The first option's text: "Todos", "Elige…". */
  empty: string;
  kind?: "person" | "bot";
  enabledOnly?: boolean;
  required?: boolean;
  /** An option's text: the login by default, "deployer (bot)" where kinds mix. */
  describe?: (subject: Subject) => string;
}) {
  const [typed, setTyped] = useState("");
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setText(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useLoad(() => get<ListPage<Subject>>(`/api/subjects${query({
    q: text, kind, status: enabledOnly ? "enabled" : undefined, limit: SHOWN,
  })}`), [text, kind, enabledOnly]);
  const listed = found.data?.items ?? [];
  // The chosen one stays in the list whatever the search shows (arriving with ?subject=<id> too).
  const chosen = useLoad(() => value && !listed.some((item) => item.id === value)
    ? get<Subject[]>(`/api/subjects${query({ id: value })}`)
    : Promise.resolve([] as Subject[]), [value]);
  const options = [...(chosen.data ?? []).filter((item) => !listed.some((other) => other.id === item.id)), ...listed];
  const searchable = Boolean(found.data?.next_cursor) || text !== "" || typed !== "";

  return (
    <>
      <label class="field">
        <span>{label}</span>
        <select name={name} required={required} value={value}
          onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">{empty}</option>
          {options.map((item) => (
            <option key={item.id} value={item.id}>{describe(item)}</option>
          ))}
        </select>
      </label>
      {searchable && (
        <label class="field">
          <span>Buscar {label.toLowerCase()}</span>
          <input type="search" name={`${name}-search`} value={typed} placeholder="login, nombre o correo"
            onInput={(event) => setTyped(event.currentTarget.value)} />
          {text && !found.loading && listed.length === 0 && <span class="muted small" role="status">Ninguno coincide.</span>}
          {found.data?.next_cursor && <span class="muted small">Se muestran los primeros {SHOWN}; escribe para buscar.</span>}
        </label>
      )}
    </>
  );
}
