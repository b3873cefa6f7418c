import pytest

from lorebook.project import identify, normalise_remote


@pytest.mark.parametrize("url", [
    "git@github.com:Acme/Widget.git",
    "https://github.com/acme/widget",
    "https://user:token@github.com/Acme/Widget.git",
    "ssh://git@github.com/acme/widget.git",
    "ssh://git@github.com:22/acme/widget",
])
def test_remote_spellings_normalise_to_one_key(url):
    assert normalise_remote(url) == "github.com/acme/widget"


def test_identify_uses_remote_then_root_then_cwd(git_project, tmp_path):
    sub = git_project / "src" / "pkg"
    sub.mkdir(parents=True)
    assert identify(str(sub)).key == "github.com/acme/widget"
    bare = tmp_path / "bare"
    (bare / ".git").mkdir(parents=True)
    (bare / ".git" / "config").write_text("[core]\n\tbare = false\n")
    assert identify(str(bare / "x" if False else bare)).key == "path:" + str(bare)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert identify(str(plain)).key == "path:" + str(plain)
    assert identify(str(tmp_path / "missing")) is None
