//! Reading an STL mesh (binary or ASCII, with stl_io) into its vertices, scaled.

use super::math::V3;

/// The vertices of the STL `bytes` (of the file shown as `file`), each scaled by `scale`; or
/// what is wrong with it.
pub fn vertices(bytes: &[u8], file: &str, scale: V3) -> Result<Vec<V3>, String> {
    let mut cursor = std::io::Cursor::new(bytes);
    let mesh = stl_io::read_stl(&mut cursor)
        .map_err(|e| format!("`{file}` is not a readable STL file (binary or ASCII): {e}"))?;
    if mesh.vertices.is_empty() {
        return Err(format!("`{file}` holds no triangles"));
    }
    let mut out = Vec::with_capacity(mesh.vertices.len());
    for v in &mesh.vertices {
        let p = [
            f64::from(v[0]) * scale[0],
            f64::from(v[1]) * scale[1],
            f64::from(v[2]) * scale[2],
        ];
        if !p.iter().all(|x| x.is_finite()) {
            return Err(format!("`{file}` has a vertex that is not finite"));
        }
        out.push(p);
    }
    Ok(out)
}

/// Whether a mesh file name is one toolwright reads (STL).
pub fn is_stl(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".stl")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ascii_and_binary() {
        let ascii = b"solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 2 0\nendloop\nendfacet\nendsolid t\n";
        let v = vertices(ascii, "t.stl", [1.0, 1.0, 1.0]).unwrap();
        assert_eq!(v, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]);
        // The same triangle, binary: 80-byte header, count, normal, 3 vertices, attribute.
        let mut binary = vec![0u8; 80];
        binary.extend_from_slice(&1u32.to_le_bytes());
        for x in [
            0.0f32, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0,
        ] {
            binary.extend_from_slice(&x.to_le_bytes());
        }
        binary.extend_from_slice(&[0, 0]);
        let v = vertices(&binary, "t.stl", [0.001, 0.001, 0.001]).unwrap();
        assert_eq!(v[2], [0.0, 0.002, 0.0]);
        assert!(vertices(b"not a mesh", "x.stl", [1.0; 3]).is_err());
    }

    #[test]
    fn reads_the_panda_s_meshes() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/robots/example-robot-data/robots/panda_description/meshes/collision/"
        );
        for name in ["link0", "link1", "link4", "hand"] {
            let bytes = std::fs::read(format!("{dir}{name}.stl")).unwrap();
            let v = vertices(&bytes, name, [1.0; 3]).unwrap();
            assert!(v.len() > 50, "{name}: {}", v.len());
            // Metres: a Panda link is well under a metre across.
            assert!(v.iter().all(|p| p.iter().all(|x| x.abs() < 0.5)), "{name}");
        }
    }
}
