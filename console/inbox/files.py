"""Files in the inbox: attaching one to a reply, and saving a message's attachments to a folder.

The engine judges an upload (its type by content, its size); these dialogs only find and read the
file, hand it over, and show the engine's answer beside the path. Files and the engine are used in
thread workers that post messages; the handlers close the dialog.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from backend.chat.attachments import sniff
from console.inbox.keys import FILE_DIALOG
from console.inbox.text import pending_text
from console.kit.field import Field
from console.kit.labels import describe
from console.kit.messages import ActionFailed
from console.kit.screens import ModalScreen
from console.kit.words import size
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp


class FileProblem(Exception):
    """A file or folder that can't be used, in words for the dialog."""


def local_path(typed: str) -> Path:
    """What was typed or pasted: quotes a file manager adds stripped, ~ expanded."""
    return Path(typed.strip().strip("'\"")).expanduser()


def os_problem(error: OSError, path: Path) -> FileProblem:
    """An OSError in words, naming the file it concerns (else `path`)."""
    path = Path(error.filename) if error.filename else path
    if isinstance(error, FileNotFoundError):
        return FileProblem(f"there is nothing at {path}")
    if isinstance(error, PermissionError):
        return FileProblem(f"{path} can't be opened: permission denied")
    return FileProblem(f"{path}: {error.strerror or error}")


NOT_FILES = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"))


def check_regular(mode: int, path: Path) -> None:
    """Refuse anything but a plain file: reading a pipe or a device could wait forever or never end."""
    if stat.S_ISDIR(mode):
        raise FileProblem(f"{path} is a folder, not a file")
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in NOT_FILES if test(mode)), "not an ordinary file")
        raise FileProblem(f"{path} is {kind}: only ordinary files can be attached")


def read_upload(typed: str, max_bytes: int) -> dict[str, str]:
    """The engine's upload body for a local file. At most one byte past the engine's limit is read:
    enough for the engine to refuse the file with its own message, without loading all of a huge one."""
    if not typed.strip():
        raise FileProblem("give the path of a file")
    path = local_path(typed)
    try:
        check_regular(os.stat(path).st_mode, path)
        # Non-blocking, and checked again once open, in case a pipe took the file's place meanwhile.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
            check_regular(os.fstat(file.fileno()).st_mode, path)
            content = file.read(max_bytes + 1)
    except OSError as error:
        raise os_problem(error, path) from None
    # The type the bytes show, as the engine will check it; else the name's, which the engine refuses by name.
    file_type = sniff(content) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return {"file": base64.b64encode(content).decode(), "file_name": path.name, "file_type": file_type}


def default_folder() -> Path:
    downloads = Path.home() / "Downloads"
    return downloads if downloads.is_dir() else Path.cwd()


def save_new(folder: Path, name: str, data: bytes) -> Path:
    """Write a file under a new name in `folder`: "name (1).ext" and so on when taken, never over a file.
    Only the last part of the guest's name is used, so it can't lead out of the folder."""
    base = Path(name.replace("\x00", "")).name
    base = base if base not in ("", ".", "..") else "attachment"
    stem, suffix = Path(base).stem, Path(base).suffix
    number = 0
    while True:
        path = folder / (base if number == 0 else f"{stem} ({number}){suffix}")
        try:
            with path.open("xb") as file:  # x: fails if it exists, even if it appeared a moment ago
                try:
                    file.write(data)
                except OSError:
                    path.unlink(missing_ok=True)
                    raise
            return path
        except FileExistsError:
            number += 1


class FileRefused(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Uploaded(Message):
    def __init__(self, attachment: dict[str, Any]) -> None:
        super().__init__()
        self.attachment = attachment


class FilesSaved(Message):
    def __init__(self, paths: list[Path]) -> None:
        super().__init__()
        self.paths = paths


class FileDialog(ModalScreen[Any]):
    """A path in a labelled box, Enter to go on, problems shown under the box."""

    BINDINGS = FILE_DIALOG

    app: ConsoleApp

    busy = False  # a file is being read or written: Enter again waits for it

    def field(self) -> Field:
        return self.query_one(Field)

    def on_mount(self) -> None:
        self.field().control.focus()

    def on_input_submitted(self) -> None:
        self.action_go()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        getattr(self, f"action_{event.button.id}")()

    def action_go(self) -> None:
        if not self.busy:
            self.busy = True
            self.field().clear_errors()
            self.start(self.field().value)

    def start(self, typed: str) -> None:
        """Run the dialog's work on what was typed, in a worker."""
        raise NotImplementedError

    def action_cancel(self) -> None:
        raise NotImplementedError

    def on_file_refused(self, message: FileRefused) -> None:
        self.busy = False
        self.field().show_errors([message.text])

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, under the path, not as the app's notification
        self.busy = False
        self.field().show_errors([describe(message.error)])


class AttachDialog(FileDialog):
    """Choose the file that goes with the next reply. Answers what should be pending now: the new
    upload, None when the current one is dropped, or the current one unchanged on cancel."""

    def __init__(self, guest: str, pending: dict[str, Any] | None) -> None:
        super().__init__(classes="dialog-screen")
        self.guest = guest
        self.pending = pending

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog", id="attach-dialog"):
            yield Label(f"Attach a file for {self.guest}", classes="dialog-title", markup=False)
            if self.pending:
                yield Static(f"Attached now: {pending_text(self.pending)}", classes="dialog-text", markup=False)
            yield Field("File", Input(placeholder="path, e.g. ~/Documents/invoice.pdf", id="attach-path",
                                      compact=True), path="file")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                if self.pending:
                    yield Button("Drop the attached file", id="drop", variant="warning")
                yield Button("Attach (enter)", id="go", variant="primary")

    def start(self, typed: str) -> None:
        self.upload(typed)

    def action_cancel(self) -> None:
        self.dismiss(self.pending)

    def action_drop(self) -> None:
        self.dismiss(None)

    @engine_work(group="file")
    def upload(self, typed: str) -> None:
        chat = self.app.engine.chat
        try:
            body = read_upload(typed, chat.attachments.max_bytes)
            attachment = chat.upload(self.app.actor(), body)
        except FileProblem as problem:
            self.post_message(FileRefused(str(problem)))
        else:
            self.post_message(Uploaded(attachment))

    def on_uploaded(self, message: Uploaded) -> None:
        self.dismiss(message.attachment)


class SaveDialog(FileDialog):
    """Save a message's attachments into a folder; answers the paths written, or None on cancel."""

    def __init__(self, files: list[dict[str, Any]], source: str, folder: Path) -> None:
        super().__init__(classes="dialog-screen")
        self.files = files
        self.source = source
        self.folder = folder

    def compose(self) -> ComposeResult:
        count = len(self.files)
        names = ", ".join(f"{f['file_name']} ({size(f['size'])})" for f in self.files)
        with Vertical(classes="dialog wide-dialog", id="save-dialog"):
            yield Label(f"Save {count} file{'s' if count > 1 else ''}", classes="dialog-title", markup=False)
            yield Static(f"{names}\nfrom {self.source}. A file of the same name is kept: the new one gets "
                         "a number.", classes="dialog-text", markup=False)
            yield Field("Folder", Input(str(self.folder), id="save-folder", compact=True), path="folder")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (enter)", id="go", variant="primary")

    def start(self, typed: str) -> None:
        self.save(typed)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @engine_work(group="file")
    def save(self, typed: str) -> None:
        chat, actor = self.app.engine.chat, self.app.actor()
        folder = local_path(typed)
        try:
            if not folder.is_dir():
                raise FileProblem(f"there is no folder at {folder}")
            paths = [save_new(folder, f["file_name"], chat.attachment(actor, f["id"])["data"]) for f in self.files]
        except OSError as error:
            self.post_message(FileRefused(str(os_problem(error, folder))))
        except FileProblem as problem:
            self.post_message(FileRefused(str(problem)))
        else:
            self.post_message(FilesSaved(paths))

    def on_files_saved(self, message: FilesSaved) -> None:
        self.dismiss(message.paths)


def saved_text(paths: list[Path]) -> str:
    if len(paths) == 1:
        return f"Saved {paths[0]}"
    return f"Saved {', '.join(p.name for p in paths)} in {paths[0].parent}"
