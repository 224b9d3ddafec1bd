//! Reading an SRDF (MoveIt's semantic description): the link pairs it disables for collision
//! checking (`<disable_collisions link1 link2 reason>`) and its named joint configurations
//! (`<group_state name>` with `<joint name value>`), each with its line.

/// A pair of links never checked against each other.
#[derive(Debug, Clone, PartialEq)]
pub struct Disabled {
    pub link1: String,
    pub link2: String,
    pub line: u32,
}

/// A named configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub name: String,
    pub line: u32,
    /// `(joint, value, line)`.
    pub joints: Vec<(String, f64, u32)>,
}

/// What toolwright reads of an SRDF.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Srdf {
    pub disabled: Vec<Disabled>,
    pub states: Vec<State>,
}

/// Reads the SRDF `text` (shown as `file` in messages).
pub fn read(text: &str, file: &str) -> Result<Srdf, Vec<String>> {
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        let message = e.to_string();
        let what = message
            .rsplit_once(" at ")
            .map_or(message.as_str(), |(what, _)| what);
        vec![format!(
            "`{file}` line {}, column {}: malformed XML: {what}",
            pos.row, pos.col
        )]
    })?;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(vec![format!(
            "`{file}` is not an SRDF: its root element is `<{}>`, not `<robot>`",
            root.tag_name().name()
        )]);
    }
    let line = |node: roxmltree::Node| doc.text_pos_at(node.range().start).row;
    let mut problems = Vec::new();
    let mut srdf = Srdf::default();
    for node in root.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "disable_collisions" => match (node.attribute("link1"), node.attribute("link2")) {
                (Some(a), Some(b)) => srdf.disabled.push(Disabled {
                    link1: a.to_owned(),
                    link2: b.to_owned(),
                    line: line(node),
                }),
                _ => problems.push(format!(
                    "`{file}` line {}: `<disable_collisions>` needs `link1` and `link2`",
                    line(node)
                )),
            },
            "group_state" => {
                let name = node.attribute("name").unwrap_or_default().to_owned();
                let mut joints = Vec::new();
                for j in node.children().filter(|c| c.has_tag_name("joint")) {
                    let joint = j.attribute("name").unwrap_or_default();
                    let value = j.attribute("value").unwrap_or_default();
                    // A group state's value may list several numbers (multi-DOF joints); the
                    // joints toolwright reads have one.
                    match value.trim().parse::<f64>() {
                        Ok(v) if v.is_finite() => {
                            joints.push((joint.to_owned(), v, line(j)));
                        }
                        _ => problems.push(format!(
                            "`{file}` line {}: group state `{name}`, joint `{joint}`: \
                             `value=\"{value}\"` is not a finite number",
                            line(j)
                        )),
                    }
                }
                srdf.states.push(State {
                    name,
                    line: line(node),
                    joints,
                });
            }
            _ => {}
        }
    }
    if problems.is_empty() {
        Ok(srdf)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_panda_s_pairs_and_states() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf"
        ))
        .unwrap();
        let srdf = read(&text, "panda.srdf").unwrap();
        assert_eq!(srdf.disabled.len(), 35);
        assert_eq!(srdf.disabled[0].link1, "panda_hand");
        assert_eq!(srdf.disabled[0].link2, "panda_leftfinger");
        let default = &srdf.states[0];
        assert_eq!(default.name, "default");
        assert!(
            default
                .joints
                .contains(&("panda_joint4".to_owned(), -2.35619, 27))
        );
    }

    #[test]
    fn malformed_names_the_line() {
        let e = read(
            "<robot>\n<disable_collisions link1=\"a\" link2=\"b\">\n</robot>",
            "x.srdf",
        )
        .unwrap_err();
        assert!(e[0].starts_with("`x.srdf` line 3"), "{e:?}");
        let e = read("<robot><disable_collisions link1=\"a\"/></robot>", "x.srdf").unwrap_err();
        assert!(e[0].contains("needs `link1` and `link2`"), "{e:?}");
    }
}
