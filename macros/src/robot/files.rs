//! Finding and reading the files a robot declaration names: paths relative to the crate's
//! manifest directory, mesh URIs (`package://NAME/..` through the declared package map,
//! `file://..`, and plain paths relative to the URDF's folder), and the list of every file read,
//! so that the expansion can `include_bytes!` each one and an edit rebuilds the crate.

use std::path::{Path, PathBuf};

/// The files read so far, and where relative paths start.
#[derive(Debug)]
pub struct Files {
    /// The crate's manifest directory.
    pub base: PathBuf,
    /// Every file read, as an absolute path, in order, without repeats.
    pub read: Vec<PathBuf>,
}

impl Files {
    pub fn new(base: impl Into<PathBuf>) -> Files {
        Files {
            base: base.into(),
            read: Vec::new(),
        }
    }

    /// `declared` (relative to the manifest directory, or absolute) as a path.
    pub fn path(&self, declared: &str) -> PathBuf {
        self.base.join(declared)
    }

    /// How to name `path` in a message: relative to the manifest directory when inside it.
    pub fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.base)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// The bytes of `path`, recording it; or a message naming the path tried.
    pub fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                if !self.read.contains(&absolute) {
                    self.read.push(absolute);
                }
                Ok(bytes)
            }
            Err(e) => {
                let why = match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file".to_owned(),
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
                    _ if path.is_dir() => "it is a folder".to_owned(),
                    _ => e.to_string(),
                };
                Err(format!(
                    "cannot read `{}`: {why} (tried `{}`; paths are relative to the crate's \
                     folder, where its Cargo.toml is)",
                    self.shown(path),
                    path.display()
                ))
            }
        }
    }

    /// The text of `path` (UTF-8), recording it.
    pub fn read_text(&mut self, path: &Path) -> Result<String, String> {
        let bytes = self.read(path)?;
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "`{}` is not UTF-8 text (at byte {})",
                self.shown(path),
                e.utf8_error().valid_up_to()
            )
        })
    }
}

/// Why a mesh URI does not resolve.
#[derive(Debug, Clone, PartialEq)]
pub enum UriError {
    /// `package://NAME/..` with no `NAME` in the package map.
    UnknownPackage(String),
    /// A scheme toolwright does not read (`http://`, `model://`, ..).
    Scheme(String),
    /// `package://` with no package name or no path after it.
    Malformed,
}

/// Where a mesh `uri` of the URDF in `urdf_dir` is: `package://NAME/rest` is `rest` under the
/// folder `packages` gives for `NAME` (relative to `base`, the manifest directory);
/// `file:///abs` is that path, `file://rel` and a plain path are relative to the URDF's folder.
pub fn resolve(
    uri: &str,
    urdf_dir: &Path,
    base: &Path,
    packages: &[(String, String)],
) -> Result<PathBuf, UriError> {
    if let Some(rest) = uri.strip_prefix("package://") {
        let (name, path) = rest.split_once('/').ok_or(UriError::Malformed)?;
        if name.is_empty() || path.is_empty() {
            return Err(UriError::Malformed);
        }
        let folder = packages
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, folder)| folder)
            .ok_or_else(|| UriError::UnknownPackage(name.to_owned()))?;
        return Ok(base.join(folder).join(path));
    }
    if let Some(rest) = uri.strip_prefix("file://") {
        return Ok(urdf_dir.join(rest));
    }
    if let Some((scheme, _)) = uri.split_once("://") {
        return Err(UriError::Scheme(scheme.to_owned()));
    }
    Ok(urdf_dir.join(uri))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_resolve_through_the_package_map() {
        let base = Path::new("/crate");
        let urdf = Path::new("/crate/robots/arm/urdf");
        let packages = vec![("example-robot-data".to_owned(), "robots/erd".to_owned())];
        assert_eq!(
            resolve(
                "package://example-robot-data/robots/m.stl",
                urdf,
                base,
                &packages
            ),
            Ok(PathBuf::from("/crate/robots/erd/robots/m.stl"))
        );
        assert_eq!(
            resolve("package://other/m.stl", urdf, base, &packages),
            Err(UriError::UnknownPackage("other".to_owned()))
        );
        assert_eq!(
            resolve("package://m.stl", urdf, base, &packages),
            Err(UriError::Malformed)
        );
        assert_eq!(
            resolve("file:///abs/m.stl", urdf, base, &packages),
            Ok(PathBuf::from("/abs/m.stl"))
        );
        assert_eq!(
            resolve("../meshes/m.stl", urdf, base, &packages),
            Ok(PathBuf::from("/crate/robots/arm/urdf/../meshes/m.stl"))
        );
        assert_eq!(
            resolve("http://example.com/m.stl", urdf, base, &packages),
            Err(UriError::Scheme("http".to_owned()))
        );
    }

    #[test]
    fn a_missing_file_names_the_path_tried() {
        let mut files = Files::new("/nonexistent-crate");
        let e = files.read(&files.path("robots/panda.urdf")).unwrap_err();
        assert!(
            e.contains("cannot read `robots/panda.urdf`: no such file"),
            "{e}"
        );
        assert!(
            e.contains("tried `/nonexistent-crate/robots/panda.urdf`"),
            "{e}"
        );
        assert!(files.read.is_empty());
    }
}
