"""How an entry of the op table becomes a method of both clients, typed for each.

``hello = OpMethod(Ops.hello)`` in `dynd.ops.OpMethods`, the base class of `Client` and
`AsyncClient`, makes ``hello`` a method of both: on a `Client` it takes the entry's parameters
and returns the entry's result (``Hello`` for ``Request[Hello]``), run by `Client.perform`; on
an `AsyncClient` it is an ``async`` method returning the same, run by `AsyncClient.perform`.
For mypy that is the overloads of `OpMethod.__get__` (the entry's parameters as a ParamSpec);
at run time, the first access from a class makes that class's function once, an ``async def``
when the class's ``perform`` is one, named as the entry (`name_method`), so ``help`` and
`inspect.signature` show ``Client.hello(self) -> 'Hello'`` with the entry's documentation. A
client class needs only ``ops`` (its `Ops`) and ``perform(work)``.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Coroutine,
    Dict,
    Generic,
    Optional,
    Type,
    TypeVar,
    overload,
)

if TYPE_CHECKING:
    from typing_extensions import Concatenate, ParamSpec

    from .aio import AsyncClient
    from .client import Client
    from .ops import Ops, Work

    P = ParamSpec("P")
else:
    # Generic needs a type variable at run time; ParamSpec is Python >= 3.10.
    P = TypeVar("P")

__all__ = ["OpMethod", "name_method"]

R = TypeVar("R")


class OpMethod(Generic[P, R]):
    """A method of both clients that runs the op table's `entry` (an `Ops` method returning a
    `Request` or a `Plan`): see the module's documentation. The attribute's name must be the
    entry's."""

    def __init__(self, entry: Callable[Concatenate[Ops, P], Work[R]]) -> None:
        self.entry = entry
        self.__doc__ = entry.__doc__
        self._methods: Dict[type, Callable[..., Any]] = {}

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.entry.__name__:
            raise TypeError(
                "%s.%s runs the op table's entry '%s': name it as the entry"
                % (owner.__qualname__, name, self.entry.__name__)
            )

    def __repr__(self) -> str:
        return "<op method %s>" % self.entry.__qualname__

    @overload
    def __get__(
        self, instance: None, owner: Type[Client]
    ) -> Callable[Concatenate[Client, P], R]: ...

    @overload
    def __get__(
        self, instance: None, owner: Type[AsyncClient]
    ) -> Callable[Concatenate[AsyncClient, P], Coroutine[Any, Any, R]]: ...

    @overload
    def __get__(self, instance: None, owner: type) -> OpMethod[P, R]: ...

    @overload
    def __get__(self, instance: Client, owner: Optional[type] = None) -> Callable[P, R]: ...

    @overload
    def __get__(
        self, instance: AsyncClient, owner: Optional[type] = None
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...

    def __get__(self, instance: object, owner: Optional[type] = None) -> Any:
        if owner is None:
            owner = type(instance)
        method = self._methods.get(owner)
        if method is None:
            if not callable(getattr(owner, "perform", None)):
                if instance is None:
                    return self  # the base class's attribute: no transport to run it over
                raise TypeError(
                    "%s has no perform(work): it cannot run %s"
                    % (owner.__qualname__, self.entry.__name__)
                )
            method = self._methods[owner] = _client_method(self.entry, owner)
        return method if instance is None else types.MethodType(method, instance)


def _client_method(entry: Callable[..., Any], owner: type) -> Callable[..., Any]:
    """The function of the class `owner` that runs `entry` with the same parameters over the
    client's connection (``perform``): an ``async def`` when ``owner.perform`` is one."""
    method: Callable[..., Any]
    if inspect.iscoroutinefunction(getattr(owner, "perform")):

        async def run_async(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            return await self.perform(entry(self.ops, *args, **kwargs))

        method = run_async
    else:

        def run(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            return self.perform(entry(self.ops, *args, **kwargs))

        method = run
    name_method(method, entry, owner)
    return method


def name_method(method: Callable[..., Any], entry: Callable[..., Any], owner: type) -> None:
    """Gives `method`, the function of the class `owner` that runs the op table's `entry`, the
    entry's name, documentation and parameters, and as its return annotation the type of the
    entry's result (``Hello`` for ``Request[Hello]``), as `help` and `inspect` show them."""
    functools.update_wrapper(method, entry)
    method.__module__ = owner.__module__
    method.__qualname__ = "%s.%s" % (owner.__qualname__, entry.__name__)
    signature = inspect.signature(entry)
    result = signature.return_annotation
    if isinstance(result, str) and result.endswith("]"):
        result = result[result.index("[") + 1 : -1]
    setattr(method, "__signature__", signature.replace(return_annotation=result))
