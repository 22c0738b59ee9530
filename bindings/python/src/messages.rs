//! Python ⇄ Rust for what a harness hands the advisor: the history (a list of
//! OpenAI chat messages, `{"role", "content"}` dicts with `tool_calls` in the
//! OpenAI format), the solver's draft and revisions (a string, or an
//! assistant-message dict), and the messages a Python model callable
//! receives. Errors name the offending position (`history[3].role`), never
//! echo content. Must not bound or judge anything (the Rust window bounds).

use advisor::host::{Message, Role, ToolCall};
use advisor::rollout::Draft;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

fn text_of(where_: &str, v: Option<Bound<'_, PyAny>>) -> PyResult<String> {
    let Some(v) = v else { return Ok(String::new()) };
    if v.is_none() {
        return Ok(String::new());
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if let Ok(parts) = v.cast::<PyList>() {
        // OpenAI content parts: keep the text parts, in order.
        let mut out = Vec::new();
        for part in parts.iter() {
            // No let chains: they need rustc 1.88, the package's minimum is 1.85.
            let Ok(d) = part.cast::<PyDict>() else { continue };
            let Some(t) = d.get_item("text")? else { continue };
            if let Ok(s) = t.cast::<PyString>() {
                out.push(s.to_cow()?.into_owned());
            }
        }
        return Ok(out.join("\n"));
    }
    Err(PyTypeError::new_err(format!(
        "{where_}: content must be a string, a list of content parts or None"
    )))
}

fn opt_str(where_: &str, d: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<String>> {
    match d.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => match v.cast::<PyString>() {
            Ok(s) => Ok(Some(s.to_cow()?.into_owned())),
            Err(_) => Err(PyTypeError::new_err(format!("{where_}.{key} must be a string"))),
        },
    }
}

fn tool_calls(where_: &str, d: &Bound<'_, PyDict>) -> PyResult<Vec<ToolCall>> {
    let Some(calls) = d.get_item("tool_calls")? else {
        return Ok(Vec::new());
    };
    if calls.is_none() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (i, c) in calls.try_iter()?.enumerate() {
        let c = c?;
        let at = format!("{where_}.tool_calls[{i}]");
        let c = c
            .cast::<PyDict>()
            .map_err(|_| PyTypeError::new_err(format!("{at} must be a dict")))?;
        let f = match c.get_item("function")? {
            Some(f) => f
                .cast_into::<PyDict>()
                .map_err(|_| PyTypeError::new_err(format!("{at}.function must be a dict")))?,
            None => {
                return Err(PyValueError::new_err(format!(
                    "{at}: a tool call needs \"function\": {{\"name\", \"arguments\"}} (OpenAI chat format)"
                )));
            }
        };
        let name = opt_str(&format!("{at}.function"), &f, "name")?
            .ok_or_else(|| PyValueError::new_err(format!("{at}.function.name is required")))?;
        let arguments = match f.get_item("arguments")? {
            None => String::new(),
            Some(a) if a.is_none() => String::new(),
            Some(a) => match a.cast::<PyString>() {
                Ok(s) => s.to_cow()?.into_owned(),
                Err(_) => {
                    let json = a.py().import("json")?;
                    json.call_method1("dumps", (a,))?.extract()?
                }
            },
        };
        out.push(ToolCall {
            id: opt_str(&at, c, "id")?.unwrap_or_default(),
            name,
            arguments,
        });
    }
    Ok(out)
}

/// The public history the advisor reads.
pub(crate) fn history_from_py(history: &Bound<'_, PyAny>) -> PyResult<Vec<Message>> {
    let mut out = Vec::new();
    for (i, m) in history.try_iter()?.enumerate() {
        let m = m?;
        let at = format!("history[{i}]");
        let d = m
            .cast::<PyDict>()
            .map_err(|_| PyTypeError::new_err(format!("{at} must be a dict with \"role\" and \"content\"")))?;
        let role = match opt_str(&at, d, "role")?.as_deref() {
            Some("system" | "developer") => Role::System,
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("tool" | "function") => Role::Tool,
            Some(_) => {
                return Err(PyValueError::new_err(format!(
                    "{at}.role must be system, developer, user, assistant, tool or function"
                )));
            }
            None => return Err(PyValueError::new_err(format!("{at}.role is required"))),
        };
        let mut msg = Message::new(role, text_of(&at, d.get_item("content")?)?);
        msg.tool_calls = tool_calls(&at, d)?;
        msg.tool_call_id = opt_str(&at, d, "tool_call_id")?;
        msg.name = opt_str(&at, d, "name")?;
        out.push(msg);
    }
    Ok(out)
}

/// A draft or revision: a string (text only) or an assistant-message dict.
pub(crate) fn draft_from_py(what: &str, v: &Bound<'_, PyAny>) -> PyResult<Draft> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Draft::text(s.to_cow()?));
    }
    let d = v.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a string or an assistant message dict {{\"content\", \"tool_calls\"}}"
        ))
    })?;
    Ok(Draft {
        text: text_of(what, d.get_item("content")?)?,
        tool_calls: tool_calls(what, d)?,
    })
}

fn calls_to_py<'py>(py: Python<'py>, calls: &[ToolCall]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for c in calls {
        let f = PyDict::new(py);
        f.set_item("name", &c.name)?;
        f.set_item("arguments", &c.arguments)?;
        let d = PyDict::new(py);
        d.set_item("id", &c.id)?;
        d.set_item("type", "function")?;
        d.set_item("function", f)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The committed response as an assistant message dict (OpenAI chat format).
pub(crate) fn draft_to_py<'py>(py: Python<'py>, d: &Draft) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("role", "assistant")?;
    out.set_item("content", &d.text)?;
    if !d.tool_calls.is_empty() {
        out.set_item("tool_calls", calls_to_py(py, &d.tool_calls)?)?;
    }
    Ok(out)
}

/// Messages for a Python model callable, as OpenAI chat dicts.
pub(crate) fn messages_to_py<'py>(py: Python<'py>, messages: &[Message]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for m in messages {
        let d = PyDict::new(py);
        d.set_item("role", m.role.as_str())?;
        d.set_item("content", &m.content)?;
        if !m.tool_calls.is_empty() {
            d.set_item("tool_calls", calls_to_py(py, &m.tool_calls)?)?;
        }
        if let Some(id) = &m.tool_call_id {
            d.set_item("tool_call_id", id)?;
        }
        if let Some(n) = &m.name {
            d.set_item("name", n)?;
        }
        list.append(d)?;
    }
    Ok(list)
}
