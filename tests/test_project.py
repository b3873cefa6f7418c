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
    assert identify(None) is None and identify("") is None


def test_a_directory_that_no_longer_exists_keeps_its_project(git_project, tmp_path):
    """A deleted worktree or subdirectory is not a session without a project."""
    deleted_sub = git_project / "build" / "gone"
    assert identify(str(deleted_sub)).key == "github.com/acme/widget"
    missing = tmp_path / "elsewhere" / "worktree"
    assert identify(str(missing)).key == "path:" + str(missing)


def test_a_deleted_worktree_is_filed_under_the_project_it_was_known_as(tmp_path, store):
    from hookutil import run_hook

    worktree = tmp_path / "wt" / "feature"
    (worktree / ".git").mkdir(parents=True)
    (worktree / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme/widget.git\n')
    run_hook("session-start", {"session_id": "s-before", "cwd": str(worktree), "source": "startup",
                               "hook_event_name": "SessionStart"})
    assert store.get_session("s-before")["project_key"] == "github.com/acme/widget"
    import shutil

    shutil.rmtree(worktree)
    run_hook("session-start", {"session_id": "s-after", "cwd": str(worktree / "pkg"), "source": "startup",
                               "hook_event_name": "SessionStart"})
    assert store.get_session("s-after")["project_key"] == "github.com/acme/widget"
